// Activity of sandbox containers, kept by Skilldock alone: a lease per container held for the
// length of every operation, so the idle sweep never removes a container mid-operation, and the
// last activity seen. Nothing is read from the container (a sandbox could forge a file there to
// stay alive); a container not used since this process started counts as active at its start.

interface Lease {
  held: number;
  lastActivity: number;
}

const leases = new Map<string, Lease>();
const processStart = Date.now();

function lease(id: string): Lease {
  let l = leases.get(id);
  if (!l) {
    l = { held: 0, lastActivity: 0 };
    leases.set(id, l);
  }
  return l;
}

/** Takes the container's lease; the returned release records the activity and lets it go. */
export function acquireLease(id: string, now: () => number = Date.now): () => Promise<void> {
  const l = lease(id);
  l.held += 1;
  l.lastActivity = now();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    l.lastActivity = now();
    l.held -= 1;
  };
}

/** Runs `op` while holding the container's lease, then records the activity. */
export async function withLease<T>(id: string, op: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const release = acquireLease(id, now);
  try {
    return await op();
  } finally {
    await release();
  }
}

/** Records activity now (a start, a terminal keystroke) without holding the lease. */
export function recordActivity(id: string, at: Date): void {
  const l = lease(id);
  l.lastActivity = Math.max(l.lastActivity, at.getTime());
}

/** Whether an operation on the container (by full id, or a prefix/name it was addressed by) is in flight. */
export function isLeased(fullId: string, names: string[] = []): boolean {
  for (const [key, l] of leases) {
    if (l.held > 0 && (fullId.startsWith(key) || names.includes(key) || names.includes(`/${key}`))) return true;
  }
  return false;
}

/** The last activity seen by this process, else its own start (ms since the epoch). */
export function lastActivity(fullId: string): number {
  let best = processStart;
  for (const [key, l] of leases) if (fullId.startsWith(key) && l.lastActivity) best = Math.max(best, l.lastActivity);
  return best;
}

export function forget(id: string): void {
  for (const [key, l] of leases) if (l.held === 0 && (id.startsWith(key) || key.startsWith(id))) leases.delete(key);
}
