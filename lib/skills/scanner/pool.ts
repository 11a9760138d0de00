/**
 * Scans in worker threads, so a slow scan never stalls the process: a small pool (one worker per
 * core by default), one skill per worker at a time, and a time budget per skill. A scan still
 * running at the end of its budget has its worker terminated (and replaced on demand) and ends
 * with verdict "error" marked `timedOut`, which callers must not keep as a final verdict.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { logger } from '../../core/logger';
import { type FolderLoad, type FolderLoadOptions, loadSkillFolder } from '../folder-load';
import type { ScanResult } from '../types';
import { packFiles } from './packed';
import { type DeclaredCapabilities, fileScans, type ScanInputFile, type ScanOptions, scanSkill } from './scan';
import type { WorkerMessage } from './worker';

export interface ScanPoolOptions {
  /** Worker threads; 0 or unset: one per core (at least 1). */
  size?: number;
  /** Per-skill time budget in milliseconds. Default 10 s. */
  budgetMs?: number;
}

export const DEFAULT_SCAN_BUDGET_MS = 10_000;

type Reply = { id: number; result: ScanResult } | { id: number; loaded: FolderLoad } | { id: number; failure: string };

interface Job {
  /** The message for the worker, given its id, and the buffers to move with it. */
  message: (id: number) => { msg: WorkerMessage; transfer: ArrayBuffer[] };
  /** Done in this thread when workers cannot start. */
  inThread: () => void;
  budgetMs: number;
  /** The worker's reply, or why there is none (the budget ran out, the worker died). */
  settle: (reply: Reply | { lost: string; timedOut?: boolean }) => void;
}

interface Slot {
  worker: Worker;
  /** Called with the reply to the job this worker runs, or with null when the worker died. */
  settle?: (reply: Reply | null, why?: string) => void;
  dead?: boolean;
}

/**
 * The worker entry: the bundled file beside the server bundle in production. From the TypeScript
 * sources (vitest, tsx) the worker is bundled here once per process with esbuild and run as code
 * (a worker thread does not inherit its parent's TypeScript loader, and tsx's loader starts slowly).
 */
// process-wide: the path of this program's own worker bundle, built once in development
let devBundle: string | undefined;

function workerEntry(): { code: string; eval: boolean } {
  let here = '';
  try {
    here = fileURLToPath(import.meta.url);
  } catch {
    // Not a file URL (a bundler's virtual module): fall back to the production layout below.
  }
  if (here.endsWith('.ts')) {
    if (devBundle === undefined) {
      const esbuild: typeof import('esbuild') = createRequire(here)('esbuild');
      const out = esbuild.buildSync({ entryPoints: [path.join(path.dirname(here), 'worker.ts')], bundle: true, platform: 'node', format: 'cjs', write: false });
      devBundle = out.outputFiles[0].text;
    }
    return { code: devBundle, eval: true };
  }
  const beside = here && path.join(path.dirname(here), 'scan-worker.js');
  return { code: beside && fs.existsSync(/*turbopackIgnore: true*/ beside) ? beside : path.resolve('dist/scan-worker.js'), eval: false };
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

export function timedOutResult(budgetMs: number): ScanResult {
  return { verdict: 'error', findings: [], filesScanned: 0, error: `The scan did not finish within ${seconds(budgetMs)}.`, timedOut: true };
}

/** A Buffer crosses threads as a plain Uint8Array: view the same bytes as Buffers again. */
function asBuffers(load: FolderLoad): FolderLoad {
  if (!load.listing) return load;
  const contents = load.listing.contents.map(([p, u]): [string, Buffer] => [p, Buffer.from(u.buffer, u.byteOffset, u.byteLength)]);
  return { ...load, listing: { ...load.listing, contents } };
}

export class ScanPool {
  readonly size: number;
  readonly budgetMs: number;
  private readonly idle: Slot[] = [];
  private readonly all = new Set<Slot>();
  private readonly queue: Job[] = [];
  private live = 0;
  private nextId = 1;
  private closed = false;
  /** Sent to every worker (a new worker gets them all when it starts). */
  private readonly knownScans = new Set<string>();
  /** Set when a worker cannot start: scans then run in this thread, without a budget. */
  private broken: string | null = null;

  constructor(opts: ScanPoolOptions = {}) {
    this.size = opts.size && opts.size > 0 ? opts.size : Math.max(1, os.availableParallelism());
    this.budgetMs = opts.budgetMs ?? DEFAULT_SCAN_BUDGET_MS;
  }

  scan(files: ScanInputFile[], declared: DeclaredCapabilities, opts: ScanOptions = {}, budgetMs = this.budgetMs): Promise<ScanResult> {
    if (this.closed) return Promise.reject(new Error('The scan pool is closed.'));
    if (this.broken) return Promise.resolve(scanSkill(files, declared, opts));
    return new Promise((resolve) => {
      this.queue.push({
        message: (id) => {
          const { packed, buffer } = packFiles(files);
          return { msg: { id, files: packed, declared, opts }, transfer: [buffer] };
        },
        inThread: () => resolve(scanSkill(files, declared, opts)),
        budgetMs,
        settle: (reply) => {
          if ('lost' in reply)
            resolve(reply.timedOut ? timedOutResult(budgetMs) : { verdict: 'error', findings: [], filesScanned: 0, error: `The scan failed: ${reply.lost}.` });
          else if ('result' in reply) resolve(reply.result);
          else resolve({ verdict: 'error', findings: [], filesScanned: 0, error: `The scan failed: ${'failure' in reply ? reply.failure : 'no result'}` });
        },
      });
      this.pump();
    });
  }

  /**
   * Loads a skill folder in a worker (loadSkillFolderSync: list, hash, parse SKILL.md, and scan
   * unless a scan of that content is known, see knowScans), within the same budget. Rejects when
   * the worker gives no answer (out of time, an I/O error, the worker gone).
   */
  load(dir: string, opts: FolderLoadOptions, budgetMs = this.budgetMs): Promise<FolderLoad> {
    if (this.closed) return Promise.reject(new Error('The scan pool is closed.'));
    if (this.broken) return loadSkillFolder(dir, opts);
    return new Promise((resolve, reject) => {
      this.queue.push({
        message: (id) => ({ msg: { id, load: dir, opts }, transfer: [] }),
        inThread: () => resolve(loadSkillFolder(dir, opts)),
        budgetMs,
        settle: (reply) => {
          if ('lost' in reply) reject(new Error(reply.timedOut ? `the folder did not load within ${seconds(budgetMs)}` : reply.lost));
          else if ('loaded' in reply) resolve(asBuffers(reply.loaded));
          else reject(new Error('failure' in reply ? reply.failure : 'the load returned a scan'));
        },
      });
      this.pump();
    });
  }

  /** Content hashes whose scan the caller keeps: a load in a worker does not scan them again. Only new ones are sent. */
  knowScans(hashes: Iterable<string>): void {
    const fresh: string[] = [];
    for (const h of hashes) if (!this.knownScans.has(h)) fresh.push(h);
    if (!fresh.length) return;
    for (const h of fresh) this.knownScans.add(h);
    for (const slot of this.all) slot.worker.postMessage({ knownScans: fresh } satisfies WorkerMessage);
  }

  /** Why scans run in this thread instead of workers (a worker could not start), or null. */
  get fallbackReason(): string | null {
    return this.broken;
  }

  /** Every worker drops the file scans it keeps (before its next scan), and so does this thread. */
  forgetFileScans(): void {
    fileScans.clear();
    for (const slot of this.all) slot.worker.postMessage({ forget: true } satisfies WorkerMessage);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.idle.length = 0;
    await Promise.all([...this.all].map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length) {
      const slot = this.idle.pop();
      if (!slot) {
        if (this.live < this.size) this.spawn();
        return;
      }
      this.run(slot, this.queue.shift()!);
    }
  }

  private spawn(): void {
    const entry = workerEntry();
    const worker = new Worker(entry.code, { eval: entry.eval });
    const slot: Slot = { worker };
    if (this.knownScans.size) worker.postMessage({ knownScans: [...this.knownScans] } satisfies WorkerMessage);
    let ready = false;
    this.live++;
    this.all.add(slot);
    worker.on('message', (msg: Reply | { ready: true }) => {
      if ('ready' in msg) {
        ready = true;
        this.release(slot);
      } else slot.settle?.(msg);
    });
    const died = (why: string) => {
      this.all.delete(slot);
      if (slot.dead) return;
      slot.dead = true;
      this.live--;
      if (!ready) return this.failToStart(why);
      const i = this.idle.indexOf(slot);
      if (i >= 0) this.idle.splice(i, 1);
      slot.settle?.(null, why);
    };
    worker.on('error', (e) => died(e.message));
    worker.on('exit', (code) => died(`the scanner worker exited with code ${code}`));
  }

  /** A worker that cannot start will not start on the next try either: scan in this thread from now on. */
  private failToStart(why: string): void {
    if (this.closed || this.broken) return;
    this.broken = why;
    logger.warn('scanner worker threads cannot start; scanning in the main thread without a time budget', { error: why });
    for (const job of this.queue.splice(0)) job.inThread();
  }

  private release(slot: Slot): void {
    slot.settle = undefined;
    if (this.closed) {
      void slot.worker.terminate();
      return;
    }
    slot.worker.unref();
    this.idle.push(slot);
    this.pump();
  }

  private run(slot: Slot, job: Job): void {
    const id = this.nextId++;
    slot.worker.ref();
    const timer = setTimeout(() => {
      slot.settle = undefined;
      slot.dead = true;
      this.live--;
      void slot.worker.terminate();
      job.settle({ lost: 'out of time', timedOut: true });
      this.pump();
    }, job.budgetMs);
    slot.settle = (reply, why) => {
      clearTimeout(timer);
      if (reply === null) {
        job.settle({ lost: why ?? 'the worker died' });
        this.pump();
        return;
      }
      if (reply.id !== id) return;
      job.settle(reply);
      this.release(slot);
    };
    const { msg, transfer } = job.message(id);
    slot.worker.postMessage(msg, transfer);
  }
}

const KEY = Symbol.for('skilldock.scanPool');
const g = globalThis as unknown as Record<symbol, { pool?: ScanPool; options: ScanPoolOptions } | undefined>;
const shared = () => (g[KEY] ??= { options: {} });

/** Sets the shared pool's size and budget (the composition root calls it from the config); the next scan starts a pool with them. */
export function configureScanPool(options: ScanPoolOptions): void {
  const s = shared();
  const old = s.pool;
  s.pool = undefined;
  s.options = options;
  void old?.close();
}

export async function closeScanPool(): Promise<void> {
  const s = shared();
  const old = s.pool;
  s.pool = undefined;
  await old?.close();
}

/** The shared pool's workers (and this thread) drop the file scans they keep: the next scans start from nothing. */
export function forgetFileScans(): void {
  const s = shared();
  if (s.pool) s.pool.forgetFileScans();
  else fileScans.clear();
}

/** scanSkill in the shared worker pool, with the per-skill time budget. */
export function scanSkillFiles(files: ScanInputFile[], declared: DeclaredCapabilities, opts: ScanOptions = {}): Promise<ScanResult> {
  const s = shared();
  s.pool ??= new ScanPool(s.options);
  return s.pool.scan(files, declared, opts);
}

/**
 * A skill folder loaded in the shared worker pool (listed, hashed, parsed, scanned unless its
 * content hash is known, see knowScans). When a worker gives no answer (out of budget, an I/O error, the worker
 * gone) the folder is loaded again in this thread, without blocking it and without a scan, and
 * that answer stands (its scan is then the caller's, in the pool again).
 */
export async function loadSkillFolderInPool(dir: string, opts: FolderLoadOptions): Promise<FolderLoad> {
  const s = shared();
  s.pool ??= new ScanPool(s.options);
  try {
    return await s.pool.load(dir, opts);
  } catch {
    return loadSkillFolder(dir, opts);
  }
}

/** Content hashes whose scan the caller keeps (ScanPool.knowScans on the shared pool). */
export function knowScans(hashes: Iterable<string>): void {
  const s = shared();
  s.pool ??= new ScanPool(s.options);
  s.pool.knowScans(hashes);
}
