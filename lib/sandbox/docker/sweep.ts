// The idle sweep: force-removes (with volumes) labelled containers whose last activity is older
// than their idle TTL. The composition root schedules it; a container holding a lease is skipped.
import { forget, isLeased, lastActivity } from './activity';
import type { DockerConnection } from './connection';
import { LABEL_IDLE_TTL, LABEL_MANAGED } from './create-spec';

export interface SweepOptions {
  /** Injected clock (ms since the epoch). */
  now?: () => number;
  /** Only containers carrying these labels too (e.g. one config id). */
  labels?: Record<string, string>;
  signal?: AbortSignal;
}

export interface SweepResult {
  removed: string[];
  kept: number;
  leased: number;
}

export async function sweepIdle(conn: DockerConnection, opts: SweepOptions = {}): Promise<SweepResult> {
  const now = opts.now ?? Date.now;
  const filters = [`${LABEL_MANAGED}=true`, ...Object.entries(opts.labels ?? {}).map(([k, v]) => `${k}=${v}`)];
  const list = await conn.api.listContainers({ all: true, filters: { label: filters }, abortSignal: opts.signal });
  const result: SweepResult = { removed: [], kept: 0, leased: 0 };
  for (const c of list) {
    const ttlSec = Number(c.Labels?.[LABEL_IDLE_TTL]);
    if (!Number.isFinite(ttlSec) || ttlSec <= 0) {
      result.kept += 1;
      continue;
    }
    if (isLeased(c.Id, c.Names)) {
      result.leased += 1;
      continue;
    }
    const active = c.State === 'running' ? Math.max(lastActivity(c.Id), c.Created * 1000) : c.Created * 1000;
    if (now() - active < ttlSec * 1000 || isLeased(c.Id, c.Names)) {
      result.kept += 1;
      continue;
    }
    try {
      await conn.api.getContainer(c.Id).remove({ force: true, v: true });
      forget(c.Id);
      result.removed.push(c.Id);
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode !== 404) throw e;
    }
  }
  return result;
}
