/**
 * An abort controller whose abort waits while critical work runs under its signal: a system
 * package transaction (apt, dpkg, apk) must never be signalled half-way, whether the job was
 * canceled, lost its lease or the server is shutting down. The abort fires as soon as the last
 * critical section ends.
 */
export class DeferringAbortController {
  private readonly inner = new AbortController();
  private depth = 0;
  private pending: { reason: unknown } | null = null;

  constructor() {
    owners.set(this.inner.signal, this);
  }

  get signal(): AbortSignal {
    return this.inner.signal;
  }

  /** An abort was requested while critical work ran, and waited for it. */
  deferred = false;

  /** Critical work is running now (an abort requested meanwhile is pending). */
  get inCritical(): boolean {
    return this.depth > 0;
  }

  abort(reason?: unknown): void {
    if (this.depth > 0) {
      this.pending ??= { reason };
      this.deferred = true;
      return;
    }
    this.inner.abort(reason);
  }

  async critical<T>(fn: () => Promise<T>): Promise<T> {
    this.depth++;
    try {
      return await fn();
    } finally {
      this.depth--;
      if (this.depth === 0 && this.pending) {
        const { reason } = this.pending;
        this.pending = null;
        this.inner.abort(reason);
      }
    }
  }
}

// process-wide: a side table on AbortSignal objects (weak): an entry lives and dies with its signal
const owners = new WeakMap<AbortSignal, DeferringAbortController>();

/**
 * Runs `fn` as critical work of the controller behind `signal`: its abort is held until `fn` ends.
 * A signal from a plain AbortController (or none) is left as it is.
 */
export function runCritical<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  const owner = signal ? owners.get(signal) : undefined;
  return owner ? owner.critical(fn) : fn();
}

/** Waits for every promise to settle, at most `ms`; true when they all did in time. */
export async function settledWithin(promises: readonly (Promise<unknown> | undefined)[], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([Promise.allSettled(promises).then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
