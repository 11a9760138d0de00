// The idle sweep on a schedule: every enabled Docker config names an engine (its host), and each
// engine is swept at most once a minute. One sweep covers every Skilldock container on that engine,
// since the idle TTL travels on each container's label. A failing engine is logged, never thrown.
import { and, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import { systemActor } from '../../auth/actor';
import { logger } from '../../core/logger';
import type { SandboxBackend } from '../backend';
import { CONFIG_LABEL } from '../config/in-use';
import type { DockerConfig } from '../config/schema';
import type { ConfigRow } from '../config/view';
import type { DockerBackend } from './backend';

export const SWEEP_EVERY_MS = 60_000;

export interface SweepScheduleDeps {
  db: AppDb;
  /** The (cached) backend of a Docker config row. */
  backendFor: (row: ConfigRow) => SandboxBackend;
  /** Runs before an idle container of a config is removed (its output is collected); never blocks the removal. */
  beforeRemove?: (configId: string, sandboxId: string) => Promise<void>;
  /** Injected clock (ms since the epoch). */
  now?: () => number;
  /** Injected timer; returns its stop function. */
  every?: (ms: number, fn: () => void) => () => void;
}

export interface EngineSweep {
  engine: string;
  configId: string;
  removed: string[];
  kept: number;
  leased: number;
  error?: string;
}

const engineKey = (c: DockerConfig) => `${c.host || 'default'}${c.tlsCertPath ? ` (tls ${c.tlsCertPath})` : ''}`;

/** Sweeps each engine not swept within the last minute; `lastSwept` carries that memory between passes. */
export async function sweepDockerEngines(deps: SweepScheduleDeps, lastSwept = new Map<string, number>()): Promise<EngineSweep[]> {
  const now = deps.now ?? Date.now;
  let rows: ConfigRow[];
  try {
    rows = await deps.db
      .select()
      .from(sandboxConfigs)
      .where(and(eq(sandboxConfigs.backend, 'docker'), eq(sandboxConfigs.enabled, true)));
  } catch (e) {
    logger.warn('sandbox sweep: listing configs failed', { error: String(e) });
    return [];
  }
  // Every Docker config of this database, enabled or not: an older container without the installation label is ours when it names one.
  const adoptConfigIds = await deps.db
    .select({ id: sandboxConfigs.id })
    .from(sandboxConfigs)
    .where(eq(sandboxConfigs.backend, 'docker'))
    .then((r) => r.map((x) => x.id))
    .catch(() => rows.map((r) => r.id));
  const engines = new Map<string, ConfigRow>();
  for (const row of rows) {
    const key = engineKey(row.config as DockerConfig);
    if (!engines.has(key)) engines.set(key, row);
  }
  const out: EngineSweep[] = [];
  for (const [engine, row] of engines) {
    const last = lastSwept.get(engine);
    if (last !== undefined && now() - last < SWEEP_EVERY_MS) continue;
    lastSwept.set(engine, now());
    try {
      // Duck-typed: a production build can hold two copies of the class, so instanceof is unreliable.
      const backend = deps.backendFor(row) as Partial<Pick<DockerBackend, 'sweep'>>;
      if (typeof backend.sweep !== 'function') continue;
      const before = deps.beforeRemove;
      const beforeRemove = before
        ? async (c: { id: string; labels: Record<string, string> }) => {
            const configId = c.labels[CONFIG_LABEL];
            if (configId) await before(configId, c.id);
          }
        : undefined;
      const r = await backend.sweep({ now, adoptConfigIds, beforeRemove });
      out.push({ engine, configId: row.id, ...r });
      if (r.removed.length) {
        logger.info('sandbox sweep removed idle containers', { engine, removed: r.removed, kept: r.kept, leased: r.leased });
        await recordAudit(deps.db, systemActor, { action: 'sandbox.sweep', targetType: 'sandbox_engine', targetId: engine, after: { removed: r.removed } });
      }
    } catch (e) {
      logger.warn('sandbox sweep failed', { engine, error: String(e) });
      out.push({ engine, configId: row.id, removed: [], kept: 0, leased: 0, error: String(e) });
    }
  }
  return out;
}

const realEvery = (ms: number, fn: () => void) => {
  const t = setInterval(fn, ms);
  t.unref();
  return () => clearInterval(t);
};

/** Sweeps now and then every minute (never two passes at once); returns the stop function. */
export function startSandboxSweeper(deps: SweepScheduleDeps): () => void {
  const lastSwept = new Map<string, number>();
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    sweepDockerEngines(deps, lastSwept)
      .catch((e) => logger.warn('sandbox sweep failed', { error: String(e) }))
      .finally(() => (running = false));
  };
  const stop = (deps.every ?? realEvery)(SWEEP_EVERY_MS, tick);
  tick();
  return stop;
}
