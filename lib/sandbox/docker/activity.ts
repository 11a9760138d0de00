// Activity of sandbox containers, kept by Skilldock alone: a lease per container held for the
// length of every operation, so the idle sweep never removes a container mid-operation, and the
// last activity seen. Nothing is read from the container (a sandbox could forge a file there to
// stay alive); a container not used since this process started counts as active at its start.
// With a lease store (the database) leases and activity are seen by every replica; without one
// (a backend outside the composition root) only by this process.
import type { LeaseReason, SandboxLeaseStore } from '../../cluster/sandbox-lease';

interface Lease {
  held: number;
  lastActivity: number;
}

const processStart = Date.now();

/** Whether a lease or activity key names this container (its id, a prefix of it, or one of its names). */
const names = (key: string, fullId: string, containerNames: string[]) =>
  fullId.startsWith(key) || containerNames.includes(key) || containerNames.includes(`/${key}`);

/** One read of the cluster's leases and activity, asked about container after container by a sweep. */
export interface ActivityView {
  isLeased(fullId: string, names?: string[]): boolean;
  lastActivity(fullId: string, names?: string[]): number;
}

export class SandboxActivity {
  private readonly leases = new Map<string, Lease>();

  constructor(readonly store?: SandboxLeaseStore) {}

  private lease(id: string): Lease {
    let l = this.leases.get(id);
    if (!l) {
      l = { held: 0, lastActivity: 0 };
      this.leases.set(id, l);
    }
    return l;
  }

  /** Takes the container's lease; the returned release records the activity and lets it go. */
  async acquireLease(id: string, reason: LeaseReason = 'exec', now: () => number = Date.now): Promise<() => Promise<void>> {
    const l = this.lease(id);
    l.held += 1;
    l.lastActivity = now();
    let row: string | undefined;
    try {
      row = await this.store?.hold(id, reason);
    } catch (e) {
      l.held -= 1;
      throw e;
    }
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      l.lastActivity = now();
      l.held -= 1;
      if (row) await this.store?.release(row, id, new Date(l.lastActivity));
    };
  }

  /** Runs `op` while holding the container's lease, then records the activity. */
  async withLease<T>(id: string, op: () => Promise<T>, reason: LeaseReason = 'exec', now: () => number = Date.now): Promise<T> {
    const release = await this.acquireLease(id, reason, now);
    try {
      return await op();
    } finally {
      await release();
    }
  }

  /** Records activity now (a start, a terminal keystroke) without holding the lease. */
  async recordActivity(id: string, at: Date): Promise<void> {
    const l = this.lease(id);
    l.lastActivity = Math.max(l.lastActivity, at.getTime());
    await this.store?.touch(id, at);
  }

  /** This process's own view (no database read). */
  private localView(): ActivityView {
    return {
      isLeased: (fullId, ns = []) => [...this.leases].some(([key, l]) => l.held > 0 && names(key, fullId, ns)),
      lastActivity: (fullId, ns = []) => {
        let best = processStart;
        for (const [key, l] of this.leases) if (l.lastActivity && names(key, fullId, ns)) best = Math.max(best, l.lastActivity);
        return best;
      },
    };
  }

  /** Leases and last activity of every replica (this process's own included), read once. */
  async view(): Promise<ActivityView> {
    const local = this.localView();
    if (!this.store) return local;
    const cluster = await this.store.cluster();
    return {
      isLeased: (fullId, ns = []) => local.isLeased(fullId, ns) || cluster.leased.some((r) => names(r.sandboxKey, fullId, ns)),
      lastActivity: (fullId, ns = []) => {
        let best = local.lastActivity(fullId, ns);
        for (const [key, at] of cluster.activity) if (names(key, fullId, ns)) best = Math.max(best, at);
        return best;
      },
    };
  }

  /**
   * The last activity any replica recorded, for display: unlike the sweep's view, no floor at this
   * process's start (undefined when nothing was recorded).
   */
  async recorded(): Promise<(fullId: string, names?: string[]) => Date | undefined> {
    const cluster = this.store ? await this.store.cluster() : null;
    return (fullId, ns = []) => {
      let best = 0;
      for (const [key, l] of this.leases) if (l.lastActivity && names(key, fullId, ns)) best = Math.max(best, l.lastActivity);
      for (const [key, at] of cluster?.activity ?? []) if (names(key, fullId, ns)) best = Math.max(best, at);
      return best ? new Date(best) : undefined;
    };
  }

  /** Whether any replica holds a lease on the container right now. */
  async isLeased(fullId: string, ns: string[] = []): Promise<boolean> {
    return (await this.view()).isLeased(fullId, ns);
  }

  /** Drops what is kept about removed containers. */
  async forget(ids: string[]): Promise<void> {
    for (const id of ids) for (const [key, l] of this.leases) if (l.held === 0 && (id.startsWith(key) || key.startsWith(id))) this.leases.delete(key);
    await this.store?.forget(ids);
  }
}
