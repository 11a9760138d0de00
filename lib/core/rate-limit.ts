/** A per-key sliding-window limit, in memory: at most `max` calls in any `perSeconds` window. */
export interface RateLimitRule {
  max: number;
  perSeconds: number;
}

/**
 * Counts calls per key and answers how long to wait when over the limit. Each replica counts its
 * own calls: the limit bounds the work one caller makes one process do.
 */
export class RateLimiter {
  private hits = new Map<string, number[]>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 50_000,
  ) {}

  /** Records a call; returns 0 when allowed, else the milliseconds until the next call would be. */
  take(key: string, rule: RateLimitRule): number {
    const now = this.now();
    const windowMs = rule.perSeconds * 1000;
    const recent = (this.hits.get(key) ?? []).filter((t) => now - t < windowMs);
    if (recent.length >= rule.max) {
      this.hits.set(key, recent);
      return Math.max(1, recent[0] + windowMs - now);
    }
    recent.push(now);
    this.hits.delete(key);
    this.hits.set(key, recent);
    if (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value as string);
    return 0;
  }
}
