/**
 * Hashing in a worker thread: a download's digests are computed beside the event loop, which
 * meanwhile reads the network, writes the file and feeds the extraction.
 */
import { Worker } from 'node:worker_threads';
import type { HashAlgorithm } from './parse';

// Plain JavaScript run as code: a worker does not inherit its parent's TypeScript loader.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = workerData.algorithms.map((a) => [a, createHash(a)]);
parentPort.on('message', (m) => {
  if (m === null) {
    parentPort.postMessage({ digests: Object.fromEntries(hashes.map(([a, h]) => [a, h.digest('hex')])) });
    return;
  }
  for (const [, h] of hashes) h.update(m);
  parentPort.postMessage({ done: m.length });
});
`;

/** The parts joined into one block of shared memory, which the hashing thread reads in place. */
export function sharedBlock(parts: readonly Uint8Array[], bytes: number): Buffer {
  const block = Buffer.from(new SharedArrayBuffer(bytes));
  let at = 0;
  for (const p of parts) {
    block.set(p, at);
    at += p.length;
  }
  return block;
}

/** Bytes sent to the worker and not yet hashed before `update` waits. */
export const HASH_IN_FLIGHT = 8 * 1024 * 1024;

type Reply = { done: number } | { digests: Record<string, string> };

export class WorkerHasher {
  private readonly worker: Worker;
  private inFlight = 0;
  private failure: Error | null = null;
  private waiting: (() => void) | null = null;
  private finish: ((d: Record<string, string>) => void) | null = null;
  private readonly algorithms: HashAlgorithm[];

  constructor(algorithms: Iterable<HashAlgorithm>) {
    this.algorithms = [...new Set<HashAlgorithm>(['sha256', ...algorithms])];
    this.worker = new Worker(SOURCE, { eval: true, workerData: { algorithms: this.algorithms }, execArgv: [], env: {}, stdout: true, stderr: true });
    this.worker.on('message', (m: Reply) => {
      if ('done' in m) {
        this.inFlight -= m.done;
        if (this.inFlight <= HASH_IN_FLIGHT) this.wake();
      } else this.finish?.(m.digests);
    });
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) => this.fail(new Error(`The hashing thread exited (${code}).`)));
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.wake();
    this.finish?.({});
  }

  /**
   * Hashes `chunk`, which must not change afterwards; waits while too much is queued. A chunk in
   * shared memory (`sharedBlock`) reaches the thread without a copy, any other is copied once.
   */
  async update(chunk: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    const shared = chunk.buffer instanceof SharedArrayBuffer ? chunk : sharedBlock([chunk], chunk.length);
    this.inFlight += shared.length;
    this.worker.postMessage(shared);
    while (this.inFlight > HASH_IN_FLIGHT && !this.failure) await new Promise<void>((r) => (this.waiting = r));
    if (this.failure) throw this.failure;
  }

  /** Lower-case hex per algorithm, sha256 always; ends the thread. Call once, after the last update. */
  async digests(): Promise<Record<HashAlgorithm, string> & { sha256: string }> {
    try {
      if (this.failure) throw this.failure;
      const out = await new Promise<Record<string, string>>((resolve) => {
        this.finish = resolve;
        this.worker.postMessage(null);
      });
      if (this.failure) throw this.failure;
      return out as Record<HashAlgorithm, string> & { sha256: string };
    } finally {
      this.close();
    }
  }

  /** Ends the thread (idempotent). */
  close(): void {
    this.finish = null;
    this.worker.removeAllListeners('exit');
    this.worker.on('error', () => undefined);
    void this.worker.terminate();
  }
}
