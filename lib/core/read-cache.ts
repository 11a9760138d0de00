// Recognised by a registered symbol, not instanceof: the production build loads this module twice
// (the server bundle and Next's route bundles), and a page cached by one is sent by the other.
const BRAND = Symbol.for('skilldock.json-text');

/** A value serialised once to its JSON bytes, sent as is by every answer that reuses it. */
export class JsonText {
  readonly bytes: number;
  readonly [BRAND] = true;

  static is(v: unknown): v is JsonText {
    return typeof v === 'object' && v !== null && (v as { [BRAND]?: unknown })[BRAND] === true;
  }

  constructor(readonly body: Uint8Array<ArrayBuffer>) {
    this.bytes = body.byteLength;
  }

  static of(value: unknown): JsonText {
    return new JsonText(Buffer.from(JSON.stringify(value) ?? 'null'));
  }

  get text(): string {
    return Buffer.from(this.body.buffer, this.body.byteOffset, this.body.byteLength).toString('utf8');
  }
}

export interface ReadCacheOptions {
  maxEntries?: number;
  /** Upper bound on the summed `bytes` of the entries; an entry larger than a quarter of it is not kept. */
  maxBytes?: number;
  /** Upper bound on staleness should an invalidation be lost (e.g. while a LISTEN connection reconnects). */
  ttlMs?: number;
  now?: () => number;
}

/**
 * Results of a read keyed by its (canonical) input, dropped as a whole by `invalidate()`, which the
 * owner calls on every change of the data read. A load that started before an invalidation is
 * handed to its caller but never stored, so a stored entry is never older than the last change
 * this process has heard of. Concurrent misses of one key share one load. Least recently used
 * entries go first when a bound is reached.
 */
export class ReadCache<V extends { bytes: number }> {
  private entries = new Map<string, { value: V; at: number }>();
  private inflight = new Map<string, { epoch: number; promise: Promise<V> }>();
  private epoch = 0;
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(opts: ReadCacheOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 256;
    this.maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
    this.ttlMs = opts.ttlMs ?? 5_000;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  invalidate(): void {
    this.epoch++;
    this.entries.clear();
    this.inflight.clear();
    this.bytes = 0;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      if (this.now() - hit.at < this.ttlMs) {
        this.entries.set(key, hit);
        return hit.value;
      }
      this.bytes -= hit.value.bytes;
    }
    const pending = this.inflight.get(key);
    if (pending && pending.epoch === this.epoch) return pending.promise;
    const epoch = this.epoch;
    const promise = load();
    this.inflight.set(key, { epoch, promise });
    try {
      const value = await promise;
      if (epoch === this.epoch) this.store(key, value);
      return value;
    } finally {
      if (this.inflight.get(key)?.promise === promise) this.inflight.delete(key);
    }
  }

  private store(key: string, value: V): void {
    if (value.bytes > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.value.bytes;
    }
    this.entries.set(key, { value, at: this.now() });
    this.bytes += value.bytes;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.value.bytes;
    }
  }
}
