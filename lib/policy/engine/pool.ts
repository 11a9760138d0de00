/**
 * The exec policy's tester and replay run in a worker thread with a time budget, so a hostile
 * command or a long replay never stalls the process: past its budget a job's worker is terminated
 * (a fresh one starts for the next job) and the call is refused with 503 unavailable. The worker
 * loading follows the skill scanner's pool: the bundled file beside the server in production, an
 * esbuild bundle of the sources in development and tests.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../core/errors';
import type { Evaluation, EvaluationContext, ProfileRules, TreeNode } from '../types';
import type { EvalReply, EvalRequest, ReplayItem } from './worker';

export interface PolicyPoolOptions {
  /** Budget of one evaluate call. Default 3 s. */
  evaluateBudgetMs?: number;
  /** Budget of one replay. Default 15 s. */
  replayBudgetMs?: number;
}

type Request = EvalRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Job {
  req: Request;
  budgetMs: number;
  what: string;
  resolve: (reply: EvalReply) => void;
  reject: (e: unknown) => void;
}

// process-wide: the path of this program's own worker bundle, built once in development
let devEntry: string | undefined;

/** The worker's file: the production bundle beside the server bundle, else the sources bundled once per process. */
function workerFile(): URL {
  let here = '';
  try {
    here = fileURLToPath(import.meta.url);
  } catch {
    // Not a file URL (a bundler's virtual module): the production layout below.
  }
  if (here.endsWith('.ts')) {
    if (!devEntry) {
      const esbuild: typeof import('esbuild') = createRequire(here)('esbuild');
      const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-policy-worker-')), 'policy-worker.mjs');
      esbuild.buildSync({
        entryPoints: [path.join(path.dirname(here), 'worker.ts')],
        outfile: out,
        bundle: true,
        platform: 'node',
        format: 'esm',
        logLevel: 'error',
        // ESM output that still lets bundled CommonJS code call require().
        banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      });
      devEntry = out;
    }
    return pathToFileURL(devEntry);
  }
  const beside = here && path.join(path.dirname(here), 'policy-worker.js');
  return pathToFileURL(beside && fs.existsSync(/*turbopackIgnore: true*/ beside) ? beside : path.resolve('dist/policy-worker.js'));
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

export class PolicyPool {
  readonly evaluateBudgetMs: number;
  readonly replayBudgetMs: number;
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private readonly queue: Job[] = [];
  private busy = false;
  private nextId = 1;
  private closed = false;

  constructor(opts: PolicyPoolOptions = {}) {
    this.evaluateBudgetMs = opts.evaluateBudgetMs ?? 3_000;
    this.replayBudgetMs = opts.replayBudgetMs ?? 15_000;
  }

  async evaluate(command: string, rules: ProfileRules, ctx?: EvaluationContext, tree?: boolean): Promise<{ evaluation: Evaluation; tree?: TreeNode }> {
    const r = await this.submit({ op: 'evaluate', command, rules, ...(ctx ? { ctx } : {}), ...(tree ? { tree } : {}) }, this.evaluateBudgetMs, 'The command');
    if (!('evaluation' in r)) throw new AppError('internal', 'The policy worker answered without an evaluation.');
    return { evaluation: r.evaluation, ...(r.tree ? { tree: r.tree } : {}) };
  }

  async replay(commands: string[], current: ProfileRules, proposed: ProfileRules): Promise<ReplayItem[]> {
    const r = await this.submit({ op: 'replay', commands, current, proposed }, this.replayBudgetMs, 'The replay');
    if (!('items' in r)) throw new AppError('internal', 'The policy worker answered without replay items.');
    return r.items;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new AppError('unavailable', 'The server is shutting down.'));
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    await w?.terminate();
  }

  private submit(req: Request, budgetMs: number, what: string): Promise<EvalReply> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The policy checker is closed.'));
    return new Promise<EvalReply>((resolve, reject) => {
      this.queue.push({ req, budgetMs, what, resolve, reject });
      void this.pump();
    }).then((r) => {
      if ('failure' in r) throw new AppError('internal', `The policy check failed: ${r.failure}`);
      return r;
    });
  }

  private start(): Promise<Worker> {
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      const w = new Worker(workerFile());
      const fail = (why: string) => {
        if (this.worker === w) this.worker = null;
        this.ready = null;
        reject(new AppError('unavailable', `The policy checker's worker could not start: ${why}`));
      };
      w.once('message', () => {
        this.worker = w;
        w.off('error', onError);
        w.off('exit', onExit);
        resolve(w);
      });
      const onError = (e: Error) => fail(e.message);
      const onExit = (code: number) => fail(`it exited with code ${code}`);
      w.once('error', onError);
      w.once('exit', onExit);
    });
    return this.ready;
  }

  private async pump(): Promise<void> {
    if (this.busy || !this.queue.length) return;
    this.busy = true;
    const job = this.queue.shift()!;
    try {
      job.resolve(await this.run(job));
    } catch (e) {
      job.reject(e);
    } finally {
      this.busy = false;
      void this.pump();
    }
  }

  private async run(job: Job): Promise<EvalReply> {
    const w = await this.start();
    const id = this.nextId++;
    w.ref();
    try {
      return await new Promise<EvalReply>((resolve, reject) => {
        const done = () => {
          clearTimeout(timer);
          w.off('message', onMessage);
          w.off('exit', onExit);
        };
        const onMessage = (m: EvalReply) => {
          if (m.id !== id) return;
          done();
          resolve(m);
        };
        const onExit = (code: number) => {
          done();
          this.forget(w);
          reject(new AppError('unavailable', `The policy checker's worker stopped (code ${code}); try again.`));
        };
        const timer = setTimeout(() => {
          done();
          this.forget(w);
          void w.terminate();
          reject(
            new AppError('unavailable', `${job.what} did not finish within ${seconds(job.budgetMs)}; nothing was decided.`, {
              hint: 'Send fewer or shorter commands.',
              details: { budgetMs: job.budgetMs },
            }),
          );
        }, job.budgetMs);
        w.on('message', onMessage);
        w.once('exit', onExit);
        w.postMessage({ id, ...job.req } as EvalRequest);
      });
    } finally {
      w.unref();
    }
  }

  private forget(w: Worker): void {
    if (this.worker !== w) return;
    this.worker = null;
    this.ready = null;
  }
}

const KEY = Symbol.for('skilldock.policyPool');
const g = globalThis as unknown as Record<symbol, { pool?: PolicyPool; options: PolicyPoolOptions } | undefined>;
const shared = () => (g[KEY] ??= { options: {} });

/** The process's pool (started on first use). */
export function policyPool(): PolicyPool {
  const s = shared();
  s.pool ??= new PolicyPool(s.options);
  return s.pool;
}

/** Sets the shared pool's budgets; the next call starts a pool with them. */
export function configurePolicyPool(options: PolicyPoolOptions): void {
  const s = shared();
  const old = s.pool;
  s.pool = undefined;
  s.options = options;
  void old?.close();
}
