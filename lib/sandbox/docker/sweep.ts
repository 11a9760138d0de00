// The idle sweep: force-removes (with volumes) labelled containers whose last activity is older
// than their idle TTL. The composition root schedules it; a container holding a lease (of any
// replica, when the activity has a lease store) is skipped. Only this installation's containers
// are looked at: another installation's on the same engine are never touched. A container made
// before containers carried the installation label is this installation's only when its config
// label names one of this database's configs (config ids are random, so no other database has it).
import { logger } from '../../core/logger';
import type { SandboxActivity } from './activity';
import type { DockerConnection } from './connection';
import { LABEL_CONFIG, LABEL_IDLE_TTL, LABEL_INSTALLATION, LABEL_MANAGED } from './create-spec';

export interface SweepOptions {
  /** Injected clock (ms since the epoch). */
  now?: () => number;
  /** Only containers carrying these labels too (e.g. one config id). */
  labels?: Record<string, string>;
  /** This database's config ids: an unlabelled (older) container of one of these is this installation's. */
  adoptConfigIds?: string[];
  signal?: AbortSignal;
  /** Runs just before a container is removed (its output is collected); a throw is logged, the removal goes on. */
  beforeRemove?: (c: { id: string; labels: Record<string, string> }) => Promise<void>;
}

export interface SweepResult {
  removed: string[];
  kept: number;
  leased: number;
}

export interface SweepScope {
  /** The installation whose containers are swept; without it nothing is swept. */
  installationId?: string;
  /** Leases and last use of the backend's sandboxes. */
  activity: SandboxActivity;
}

export async function sweepIdle(conn: DockerConnection, opts: SweepOptions = {}, scope: SweepScope): Promise<SweepResult> {
  const result: SweepResult = { removed: [], kept: 0, leased: 0 };
  // Without an installation id the sweep cannot tell its own containers from another's: it removes none.
  if (!scope.installationId) return result;
  const now = opts.now ?? Date.now;
  const activity = scope.activity;
  const filters = [`${LABEL_MANAGED}=true`, ...Object.entries(opts.labels ?? {}).map(([k, v]) => `${k}=${v}`)];
  const list = await conn.api.listContainers({ all: true, filters: { label: filters }, abortSignal: opts.signal });
  const adopt = new Set(opts.adoptConfigIds ?? []);
  const ours = list.filter((c) => {
    const inst = c.Labels?.[LABEL_INSTALLATION];
    return inst ? inst === scope.installationId : adopt.has(c.Labels?.[LABEL_CONFIG] ?? '');
  });
  const seen = await activity.view();
  for (const c of ours) {
    const ttlSec = Number(c.Labels?.[LABEL_IDLE_TTL]);
    if (!Number.isFinite(ttlSec) || ttlSec <= 0) {
      result.kept += 1;
      continue;
    }
    if (seen.isLeased(c.Id, c.Names)) {
      result.leased += 1;
      continue;
    }
    const active = c.State === 'running' ? Math.max(seen.lastActivity(c.Id, c.Names), c.Created * 1000) : c.Created * 1000;
    if (now() - active < ttlSec * 1000) {
      result.kept += 1;
      continue;
    }
    // Read again just before removal: a use may have started on any replica since the first read.
    if (await activity.isLeased(c.Id, c.Names)) {
      result.leased += 1;
      continue;
    }
    if (opts.beforeRemove) {
      await opts
        .beforeRemove({ id: c.Id, labels: c.Labels ?? {} })
        .catch((e) => logger.warn('before an idle sandbox’s removal', { sandbox: c.Id, error: String(e) }));
      // The collection took a while: a use that began meanwhile keeps the sandbox.
      if (await activity.isLeased(c.Id, c.Names)) {
        result.leased += 1;
        continue;
      }
    }
    try {
      await conn.api.getContainer(c.Id).remove({ force: true, v: true });
      result.removed.push(c.Id);
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode !== 404) throw e;
    }
  }
  await activity.forget(result.removed);
  return result;
}
