import os from 'node:os';
import { dockerStatus } from './docker/client';
import { enforcementHolder } from './sandbox/network/enforcement';
import type { Services } from './services';

export async function instanceInfo(s: Services) {
  return {
    name: 'Skilldock',
    version: s.version,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    hostname: os.hostname(),
    startedAt: s.startedAt.toISOString(),
    uptimeSeconds: Math.round((Date.now() - s.startedAt.getTime()) / 1000),
    database: { kind: s.database.kind, location: s.database.location },
    dataDir: s.config.dataDir,
    docker: await dockerStatus(2000),
    replica: { id: s.replica.id, installationId: s.installationId },
    networkEnforcement: enforcementHolder(s.network),
    worker: s.worker
      ? { id: s.worker.id, running: s.worker.activeJobIds.length, concurrency: s.config.SKILLDOCK_WORKER_CONCURRENCY, leaseMs: s.config.SKILLDOCK_JOB_LEASE_MS }
      : null,
  };
}
