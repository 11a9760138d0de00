// Reconciling the sandbox networks of every local Docker config with their stored policies: at boot
// (or when a replica takes the enforcement over) and on each engine's network events.
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import { describeError, logger } from '../../core/logger';
import type { NetworkEnforcer } from '../../network/docker/enforcer';
import { storedPolicy } from '../../network/policy/open';
import type { DockerConfig } from '../config/schema';
import { type DockerClients, type DockerConnection, dockerConnection } from '../docker/connection';
import { watchNetworkEvents } from './engine-events';

/**
 * At boot, every local Docker config's network gets its rules and listeners back, and each engine's
 * network events are followed from then on. Returns the stop of those watches.
 */
export function startNetworkReconciler(db: AppDb, enforcer: NetworkEnforcer, clients: DockerClients): () => void {
  const stops: (() => void)[] = [];
  let stopped = false;
  void reconcileNetworks(db, enforcer, clients).then((engines) => {
    for (const conn of engines)
      if (!stopped) stops.push(watchNetworkEvents(conn.api, enforcer, () => reconcileNetworks(db, enforcer, clients).then(() => undefined)));
  });
  return () => {
    stopped = true;
    for (const s of stops) s();
  };
}

/** Every local Docker config's network gets its rules and listeners back; answers the engines it asked. */
export async function reconcileNetworks(db: AppDb, enforcer: NetworkEnforcer, clients: DockerClients): Promise<DockerConnection[]> {
  const rows = await db.select().from(sandboxConfigs).where(eq(sandboxConfigs.backend, 'docker'));
  const engines = new Map<string, DockerConnection>();
  for (const r of rows) {
    const c = r.config as DockerConfig;
    if (c.host && !c.host.startsWith('unix://')) continue;
    const conn = dockerConnection({ host: c.host || undefined, clients });
    engines.set(conn.endpoint, conn);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const conn of engines.values()) {
    try {
      const n = await enforcer.reconcile(conn.api, async (id) => {
        const row = byId.get(id);
        return row ? storedPolicy(row) : null;
      });
      if (n) logger.info('sandbox networks reconciled', { engine: conn.endpoint, networks: n });
    } catch (e) {
      logger.warn('could not reconcile sandbox networks', { engine: conn.endpoint, err: describeError(e) });
    }
  }
  return [...engines.values()];
}
