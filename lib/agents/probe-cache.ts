import type { AgentProbe } from './probe';

/** How long a host agent's probe is taken on its word: bounds staleness on a replica that lost a change notice. */
export const AGENT_PROBE_TTL_MS = 2000;
/** A change this process published whose committed notice never came (its transaction rolled back) holds caching back this long. */
const PENDING_MS = 30_000;
const ALL = '*';

export interface AgentProbeCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * The probes of agents on the host (no sandbox config), kept for a moment so the gateway's poll
 * does not read the database every time. Only the agent's row and the defaults make such a probe,
 * and every write of those publishes an `agents` change: a change this process publishes drops the
 * entry at once and nothing of it is kept until its committed notice arrives (`heard`), which is
 * how every other replica drops it. A probe read before a change is never stored after it.
 * A sandbox-bound agent's probe (a digest over many tables) is always read.
 */
export class AgentProbeCache {
  private entries = new Map<string, { probe: AgentProbe; at: number }>();
  private epoch = 0;
  private pending = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(opts: AgentProbeCacheOptions = {}) {
    this.ttlMs = opts.ttlMs ?? AGENT_PROBE_TTL_MS;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** A change this process is publishing (inside its transaction): `id` an agent, null the defaults (every agent). */
  published(id: string | null): void {
    this.pending.set(id ?? ALL, this.now() + PENDING_MS);
    this.drop(id);
  }

  /** A committed change, heard from the database: made by any replica, this one included. */
  heard(id: string | null): void {
    this.pending.delete(id ?? ALL);
    this.drop(id);
  }

  get size(): number {
    return this.entries.size;
  }

  async get(id: string, read: () => Promise<AgentProbe>): Promise<AgentProbe> {
    const hit = this.entries.get(id);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.probe;
    const epoch = this.epoch;
    const probe = await read();
    if (probe.sandboxConfigId === null && epoch === this.epoch && !this.held(id)) {
      this.entries.delete(id);
      this.entries.set(id, { probe, at: this.now() });
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return probe;
  }

  private drop(id: string | null): void {
    this.epoch++;
    if (id === null) this.entries.clear();
    else this.entries.delete(id);
  }

  private held(id: string): boolean {
    const now = this.now();
    for (const key of [id, ALL]) {
      const until = this.pending.get(key);
      if (until === undefined) continue;
      if (until > now) return true;
      this.pending.delete(key);
    }
    return false;
  }
}
