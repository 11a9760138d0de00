// One watcher per agents service (its memo holds it): while at least one stream follows an agent, its version
// (the ETag of its effective skills) is read every interval, and every follower hears each change.
// effectiveOf is cached and costs one small probe statement while nothing changed, and that probe
// sees writes of every replica, so polling it is cheap and needs no notice channel. A save in this
// process can poke the watcher to look at once instead of at the next tick.
import { type AppError, isAppError } from '../core/errors';

export const WATCH_INTERVAL_MS = 150;

export interface VersionListener {
  onVersion: (version: string) => void;
  /** The agent can no longer be read (deleted: not_found); the follower should end. */
  onGone: (error: AppError) => void;
}

interface Watched {
  /** Each follower, and whether it has heard a version yet: a new one hears the next check's, changed or not. */
  listeners: Map<VersionListener, { primed: boolean }>;
  version: string | null;
  timer: NodeJS.Timeout | null;
  checking: Promise<void> | null;
  again: boolean;
}

export class AgentVersionWatcher {
  private readonly agents = new Map<string, Watched>();
  /** Streams open now per owner: how many one owner may hold is counted per service. */
  readonly openByOwner = new Map<string, number>();
  /** Version reads done (tests and benches). */
  checks = 0;

  constructor(
    private readonly versionOf: (agentId: string) => Promise<string>,
    private readonly intervalMs = WATCH_INTERVAL_MS,
  ) {}

  /**
   * Follows `agentId`: a check runs now and its version goes to the new listener, then every change.
   * Returns the function that stops following.
   */
  subscribe(agentId: string, listener: VersionListener): () => void {
    let w = this.agents.get(agentId);
    if (!w) this.agents.set(agentId, (w = { listeners: new Map(), version: null, timer: null, checking: null, again: false }));
    w.listeners.set(listener, { primed: false });
    this.poke(agentId);
    return () => {
      const cur = this.agents.get(agentId);
      if (!cur) return;
      cur.listeners.delete(listener);
      if (cur.listeners.size === 0) {
        if (cur.timer) clearTimeout(cur.timer);
        cur.timer = null;
        this.agents.delete(agentId);
      }
    };
  }

  /** Checks the agent (or every followed agent) now; a check under way is followed by one more. */
  poke(agentId?: string): void {
    const ids = agentId ? [agentId] : [...this.agents.keys()];
    for (const id of ids) {
      const w = this.agents.get(id);
      if (!w) continue;
      if (w.checking) w.again = true;
      else this.schedule(id, w, 0);
    }
  }

  /** Agents followed now, and the streams on each. */
  followed(): Map<string, number> {
    return new Map([...this.agents].map(([id, w]) => [id, w.listeners.size]));
  }

  private schedule(agentId: string, w: Watched, delay: number): void {
    if (w.timer) clearTimeout(w.timer);
    w.timer = setTimeout(() => {
      w.timer = null;
      w.checking = this.check(agentId, w).finally(() => {
        w.checking = null;
        if (this.agents.get(agentId) !== w) return;
        const again = w.again;
        w.again = false;
        this.schedule(agentId, w, again ? 0 : this.intervalMs);
      });
    }, delay);
    w.timer.unref?.();
  }

  private async check(agentId: string, w: Watched): Promise<void> {
    this.checks++;
    let version: string;
    try {
      version = await this.versionOf(agentId);
    } catch (e) {
      if (isAppError(e) && e.code === 'not_found') {
        for (const l of [...w.listeners.keys()]) l.onGone(e);
      }
      // Anything else (a database hiccup) is retried at the next tick.
      return;
    }
    const changed = version !== w.version;
    w.version = version;
    for (const [l, state] of [...w.listeners]) {
      if (!changed && state.primed) continue;
      state.primed = true;
      l.onVersion(version);
    }
  }
}
