// Activity of sandbox containers. In memory: a lease per container held for the length of every
// operation, so the idle sweep never removes a container mid-operation, and the last activity
// seen. On disk, inside the container's own state volume: an activity file, so a restarted
// Skilldock still knows when a container was last used.

import type { DockerConnection } from './connection';
import { ACTIVITY_FILE, STATE_DIR } from './create-spec';
import { putTar, statPath } from './files';
import { buildTar } from './tar';

interface Lease {
  held: number;
  lastActivity: number;
  persistedAt: number;
}

const leases = new Map<string, Lease>();
/** The activity file is rewritten at most this often per container. */
const PERSIST_EVERY_MS = 5_000;

function lease(id: string): Lease {
  let l = leases.get(id);
  if (!l) {
    l = { held: 0, lastActivity: 0, persistedAt: 0 };
    leases.set(id, l);
  }
  return l;
}

/** Takes the container's lease; the returned release records the activity and lets it go. */
export function acquireLease(conn: DockerConnection, id: string, now: () => number = Date.now): () => Promise<void> {
  const l = lease(id);
  l.held += 1;
  l.lastActivity = now();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    l.lastActivity = now();
    try {
      if (l.lastActivity - l.persistedAt >= PERSIST_EVERY_MS) {
        l.persistedAt = l.lastActivity;
        await recordActivity(conn, id, new Date(l.lastActivity)).catch(() => {});
      }
    } finally {
      l.held -= 1;
    }
  };
}

/** Runs `op` while holding the container's lease, then records the activity. */
export async function withLease<T>(conn: DockerConnection, id: string, op: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const release = acquireLease(conn, id, now);
  try {
    return await op();
  } finally {
    await release();
  }
}

export async function recordActivity(conn: DockerConnection, id: string, at: Date): Promise<void> {
  await putTar(conn, id, STATE_DIR, buildTar([{ type: 'file', name: ACTIVITY_FILE, data: Buffer.from(at.toISOString()), mtime: at }]));
}

/** Whether an operation on the container (by full id, or a prefix/name it was addressed by) is in flight. */
export function isLeased(fullId: string, names: string[] = []): boolean {
  for (const [key, l] of leases) {
    if (l.held > 0 && (fullId.startsWith(key) || names.includes(key) || names.includes(`/${key}`))) return true;
  }
  return false;
}

/** The last activity known in memory or recorded in the container, in ms since the epoch. */
export async function lastActivity(conn: DockerConnection, fullId: string): Promise<number | undefined> {
  let best: number | undefined;
  for (const [key, l] of leases) if (fullId.startsWith(key) && l.lastActivity) best = Math.max(best ?? 0, l.lastActivity);
  const st = await statPath(conn, fullId, `${STATE_DIR}/${ACTIVITY_FILE}`).catch(() => null);
  const onDisk = st ? Date.parse(st.mtime) : Number.NaN;
  if (Number.isFinite(onDisk)) best = Math.max(best ?? 0, onDisk);
  return best;
}

export function forget(id: string): void {
  for (const [key, l] of leases) if (l.held === 0 && (id.startsWith(key) || key.startsWith(id))) leases.delete(key);
}
