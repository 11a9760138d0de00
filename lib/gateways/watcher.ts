// Syncs on their own: every few hundred milliseconds each auto-syncing gateway's desired-state key
// is compared with the key of its last sync; when it moved, one sync is queued (a queued one is
// reused). The key is a handful of small reads, so the loop costs little while nothing changes.

import type { Database } from '@/db/client';
import { systemActor } from '../auth/actor';
import { queueSync } from './jobs';
import type { GatewaysService } from './service';
import { listGatewayRows } from './store';

export interface GatewayWatcher {
  stop(): Promise<void>;
  /** One pass now (tests, and right after a write this process made). */
  tick(): Promise<void>;
}

export function startGatewayWatcher(database: Database, svc: GatewaysService, intervalMs: number, onError: (e: unknown) => void): GatewayWatcher {
  let stopped = false;
  let running: Promise<void> | null = null;
  const pass = async () => {
    for (const row of await listGatewayRows(svc.deps.db)) {
      if (stopped) return;
      if (!row.autoSync || row.kind !== 'openclaw' || !row.agentIds.length) continue;
      const key = await svc.desiredKey(row);
      if (key !== row.syncedKey) await queueSync(database, systemActor, row.id, 'after a change');
    }
  };
  const tick = () => {
    if (!running)
      running = pass()
        .catch(onError)
        .finally(() => {
          running = null;
        });
    return running;
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
