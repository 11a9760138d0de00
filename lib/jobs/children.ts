import { eq, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import type { JobEventHub } from './hub';
import { isFinal } from './queue';
import type { JobRow } from './types';

export interface WaitForChildrenOptions {
  /** Stops the wait early (the parent was canceled); the children's rows as last read are returned. */
  signal: AbortSignal;
  /** Called with every child (in creation order) each time one of them changed. */
  onChange?: (children: JobRow[]) => void;
  /**
   * A full re-read this often even without notices, so a lost notice (a dropped LISTEN connection)
   * delays the parent at most this long instead of leaving it waiting forever.
   */
  fallbackMs?: number;
}

/**
 * Waits until every child of a parent job has ended. Woken by the state notices every replica
 * publishes on the job bus: each notice about a child re-reads that child only.
 */
export async function waitForChildren(database: Database, hub: JobEventHub, parentId: string, opts: WaitForChildrenOptions): Promise<JobRow[]> {
  const rows = new Map<string, JobRow>();
  const changed = new Set<string>();
  let full = true;
  let wake: (() => void) | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  const off = hub.onBus((m) => {
    if (m.t !== 'state' || (rows.size && !rows.has(m.id))) return;
    if (rows.size) changed.add(m.id);
    else full = true;
    poke();
  });
  opts.signal.addEventListener('abort', poke, { once: true });
  const fallback = setInterval(() => {
    full = true;
    poke();
  }, opts.fallbackMs ?? 30_000);
  fallback.unref();
  try {
    for (;;) {
      const ids = [...changed];
      changed.clear();
      if (full) {
        full = false;
        const all = await database.db.select().from(jobs).where(eq(jobs.parentId, parentId));
        for (const r of all) rows.set(r.id, r);
      } else if (ids.length) {
        for (const r of await database.db.select().from(jobs).where(inArray(jobs.id, ids))) rows.set(r.id, r);
      }
      const children = [...rows.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      opts.onChange?.(children);
      if (children.every((c) => isFinal(c.state)) || opts.signal.aborted) return children;
      if (!full && !changed.size) await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    off();
    clearInterval(fallback);
    opts.signal.removeEventListener('abort', poke);
  }
}
