import 'server-only';
// The periodic work of a process that runs the job worker: install recovery after crashes, update
// checks (packages and imported skills), retention, the idle-sandbox sweep, image and blob collection, approval expiry and the
// gateway watcher. Processes without a worker run none of it.
import type { Database } from '@/db/client';
import { DbBlobStore, startBlobCollector } from './cluster/blob-store';
import type { Config } from './core/config';
import { logger } from './core/logger';
import type { GatewaysService } from './gateways/service';
import { type GatewayWatcher, startGatewayWatcher } from './gateways/watcher';
import { startImageCollector } from './installs/generations/image-gc';
import { startInstallRecovery } from './installs/recovery/recovery';
import type { JobEventHub } from './jobs/hub';
import { startUpdateScheduler } from './packages/update-requests';
import { type ApprovalDecisions, startApprovalExpiry } from './policy/approvals/approvals';
import { startRetentionSweeper } from './retention';
import { collectBeforeSweep } from './sandbox/artifacts/sweep-hook';
import { startSandboxSweeper } from './sandbox/docker/sweep-schedule';
import { backendFor, type InstanceDeps } from './sandbox/instances/service';
import { startSkillUpdateScheduler } from './skills/updates/jobs';

export interface WorkerTasks {
  gatewayWatcher: GatewayWatcher;
  stop(): void;
}

export async function startWorkerTasks(d: {
  config: Config;
  database: Database;
  hub: JobEventHub;
  sandboxes: InstanceDeps;
  gateways: GatewaysService;
  approvals: ApprovalDecisions;
}): Promise<WorkerTasks> {
  const { config, database, sandboxes } = d;
  // After the worker's reaper ended the crashed jobs it could: their installs end failed, their
  // half-made images and maintenance containers go. Runs again as later reaps end more of them.
  const installRecovery = startInstallRecovery(sandboxes, d.hub);
  await installRecovery.ready;
  const stops = [
    startUpdateScheduler(database),
    startRetentionSweeper(database, {
      jobDays: config.SKILLDOCK_RETENTION_JOB_DAYS,
      auditDays: config.SKILLDOCK_RETENTION_AUDIT_DAYS,
      throttleWindowMs: config.SKILLDOCK_LOGIN_WINDOW_MS,
    }),
    startSandboxSweeper({
      db: database.db,
      backendFor: (row) => backendFor(sandboxes, row),
      beforeRemove: (configId, sandboxId) => collectBeforeSweep(sandboxes, configId, sandboxId),
    }),
    startImageCollector(sandboxes),
    startBlobCollector(new DbBlobStore(database.db), undefined, (e) => logger.warn('blob collection failed', { error: String(e) })),
    startApprovalExpiry({ db: database.db, decisions: d.approvals }),
    startSkillUpdateScheduler(database),
  ];
  const gatewayWatcher = startGatewayWatcher(database, d.gateways, config.SKILLDOCK_GATEWAY_POLL_MS, (e) =>
    logger.warn('gateway watcher', { error: String(e) }),
  );
  return {
    gatewayWatcher,
    stop() {
      for (const stop of stops) stop();
      installRecovery.stop();
      void gatewayWatcher.stop();
    },
  };
}
