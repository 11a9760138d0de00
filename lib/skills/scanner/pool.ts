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
import type { ScanResult } from '../types';
import { packFiles } from './packed';
import { type DeclaredCapabilities, type ScanInputFile, type ScanOptions, scanSkill } from './scan';
import type { ScanRequest } from './worker';

export interface ScanPoolOptions {
  /** Worker threads; 0 or unset: one per core (at least 1). */
  size?: number;
  /** Per-skill time budget in milliseconds. Default 10 s. */
  budgetMs?: number;
}

export const DEFAULT_SCAN_BUDGET_MS = 10_000;

type Reply = { id: number; result: ScanResult } | { id: number; failure: string };

interface Job {
  req: { files: ScanInputFile[]; declared: DeclaredCapabilities; opts: ScanOptions };
  budgetMs: number;
  resolve: (r: ScanResult) => void;
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

export class ScanPool {
  readonly size: number;
  readonly budgetMs: number;
  private readonly idle: Slot[] = [];
  private readonly all = new Set<Slot>();
  private readonly queue: Job[] = [];
  private live = 0;
  private nextId = 1;
  private closed = false;
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
      this.queue.push({ req: { files, declared, opts }, budgetMs, resolve });
      this.pump();
    });
  }

  /** Why scans run in this thread instead of workers (a worker could not start), or null. */
  get fallbackReason(): string | null {
    return this.broken;
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
    for (const job of this.queue.splice(0)) job.resolve(scanSkill(job.req.files, job.req.declared, job.req.opts));
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
      job.resolve(timedOutResult(job.budgetMs));
      this.pump();
    }, job.budgetMs);
    slot.settle = (reply, why) => {
      clearTimeout(timer);
      if (reply === null) {
        job.resolve({ verdict: 'error', findings: [], filesScanned: 0, error: `The scan failed: ${why}.` });
        this.pump();
        return;
      }
      if (reply.id !== id) return;
      job.resolve('result' in reply ? reply.result : { verdict: 'error', findings: [], filesScanned: 0, error: `The scan failed: ${reply.failure}` });
      this.release(slot);
    };
    const { packed, buffer } = packFiles(job.req.files);
    slot.worker.postMessage({ id, files: packed, declared: job.req.declared, opts: job.req.opts } satisfies ScanRequest, [buffer]);
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

/** scanSkill in the shared worker pool, with the per-skill time budget. */
export function scanSkillFiles(files: ScanInputFile[], declared: DeclaredCapabilities, opts: ScanOptions = {}): Promise<ScanResult> {
  const s = shared();
  s.pool ??= new ScanPool(s.options);
  return s.pool.scan(files, declared, opts);
}
