import os from 'node:os';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { DeferringAbortController, settledWithin } from '../core/critical';
import { type ErrorBody, isAppError } from '../core/errors';
import { randomToken } from '../core/ids';
import { logger } from '../core/logger';
import { runProcess } from '../core/process';
import { thisHost } from './host';
import type { JobEventHub } from './hub';
import { JobLogWriter } from './log-writer';
import { failureBody, partialResult } from './outcome';
import { publish } from './queue';
import { reapExpiredJobs } from './reaper';
import type { JobRegistry } from './registry';
import type { JobContext, JobRow } from './types';

const CLAIM_LOCK = 7_340_010;

export interface WorkerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs?: number;
  /** How long a canceled job's handler may take to stop before the job is ended regardless. */
  cancelGraceMs?: number;
  /** The host this worker runs on: it claims host-bound jobs of this host only (default: this replica's). */
  host?: string;
}

interface Running {
  job: JobRow;
  controller: DeferringAbortController;
  reason: 'cancel' | 'lease-lost' | 'shutdown' | null;
  done: Promise<void>;
  handler?: Promise<unknown>;
}

/** The row is still this attempt's: same worker and same attempt (a lease that expired and was re-claimed is another's). */
const fence = (job: JobRow, owner: string) => and(eq(jobs.id, job.id), eq(jobs.leaseOwner, owner), eq(jobs.attempts, job.attempts));
const leaseUntil = (ms: number) => sql`now() + (${ms}::int * interval '1 millisecond')`;

/**
 * Runs queued jobs in this process. Claims with FOR UPDATE SKIP LOCKED under a cluster-wide
 * advisory lock (so per-kind limits hold across replicas), keeps a lease alive with heartbeats,
 * and ends or requeues jobs whose worker died.
 */
export class JobWorker {
  readonly id = `${os.hostname()}:${process.pid}:${randomToken(4)}`;
  private running = new Map<string, Running>();
  private timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private ticking = false;
  private again = false;
  private offBus: (() => void) | undefined;
  private stopped: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    private readonly hub: JobEventHub,
    private readonly registry: JobRegistry,
    private readonly opts: WorkerOptions,
  ) {}

  get activeJobIds(): string[] {
    return [...this.running.keys()];
  }

  async start(): Promise<void> {
    await this.reap();
    this.offBus = this.hub.onBus((m) => {
      if (m.t === 'wake') this.tick();
      if (m.t === 'cancel') this.running.get(m.id) && this.abort(m.id, 'cancel');
    });
    const every = (ms: number, fn: () => void) => {
      const t = setInterval(fn, ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.opts.pollMs ?? 1000, () => this.tick());
    every(Math.max(250, Math.floor(this.opts.leaseMs / 3)), () => void this.heartbeat());
    every(Math.max(500, Math.floor(this.opts.leaseMs / 2)), () => void this.reap());
    this.tick();
  }

  /** Stops claiming, aborts what runs (a critical step ends first) and waits ≤ graceMs for it to settle, heartbeats going on. */
  stop(graceMs = 30_000): Promise<void> {
    return (this.stopped ??= (async () => {
      this.stopping = true;
      this.offBus?.();
      for (const id of this.running.keys()) this.abort(id, 'shutdown');
      const busy = [...this.running.values()].flatMap((r) => [r.done, r.handler]);
      const late = !(await settledWithin(busy, graceMs));
      this.timers.forEach(clearInterval);
      if (late) logger.warn('jobs still running after the shutdown grace period', { ids: this.activeJobIds, graceMs });
    })());
  }

  private abort(id: string, reason: NonNullable<Running['reason']>) {
    const r = this.running.get(id);
    if (!r || r.reason) return;
    r.reason = reason;
    r.controller.abort(new Error(reason));
  }

  tick(): void {
    if (this.stopping) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopping && this.running.size < this.opts.concurrency) {
            const job = await this.claim();
            if (!job) break;
            this.launch(job);
          }
        } while (this.again && !this.stopping);
      } catch (e) {
        logger.error('job claim failed', { error: String(e) });
      } finally {
        this.ticking = false;
      }
    })();
  }

  private async claim(): Promise<JobRow | null> {
    const known = this.registry.kinds();
    if (!known.length) return null;
    return this.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
      const busy = await tx.select({ kind: jobs.kind, n: sql<number>`count(*)::int` }).from(jobs).where(eq(jobs.state, 'running')).groupBy(jobs.kind);
      const busyBy = new Map(busy.map((b) => [b.kind, Number(b.n)]));
      const eligible = known.filter((k) => (busyBy.get(k.name) ?? 0) < k.concurrency).map((k) => k.name);
      if (!eligible.length) return null;
      const [cand] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.state, 'queued'),
            lte(jobs.runAfter, sql`now()`),
            inArray(jobs.kind, eligible),
            or(isNull(jobs.host), eq(jobs.host, this.opts.host ?? thisHost())),
          ),
        )
        .orderBy(asc(jobs.runAfter), asc(jobs.createdAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!cand) return null;
      const [job] = await tx
        .update(jobs)
        .set({
          state: 'running',
          leaseOwner: this.id,
          leaseExpiresAt: leaseUntil(this.opts.leaseMs),
          attempts: sql`${jobs.attempts} + 1`,
          startedAt: sql`coalesce(${jobs.startedAt}, now())`,
          progressStage: 'starting',
          updatedAt: sql`now()`,
        })
        .where(eq(jobs.id, cand.id))
        .returning();
      return job;
    });
  }

  private launch(job: JobRow) {
    const controller = new DeferringAbortController();
    const entry: Running = { job, controller, reason: null, done: Promise.resolve() };
    this.running.set(job.id, entry);
    entry.done = this.execute(entry)
      .catch((e) => logger.error('job bookkeeping failed', { id: job.id, error: String(e) }))
      .finally(() => {
        if (this.running.get(job.id) === entry) this.running.delete(job.id);
        this.tick();
      });
  }

  private async execute(entry: Running): Promise<void> {
    const { job, controller } = entry;
    const { kind: def, run } = this.registry.require(job.kind);
    const t0 = performance.now();
    logger.info('job running', { id: job.id, kind: job.kind, attempt: job.attempts });
    const log = await JobLogWriter.open(this.database, job.id, {
      owner: this.id,
      attempt: job.attempts,
      onStored: (id, rows) => this.hub.stored(id, rows),
    });
    let lastProgress = 0;
    let lastStage = '';
    const ctx: JobContext<unknown> = {
      job,
      params: job.params,
      signal: controller.signal,
      database: this.database,
      log: (line, stream) => log.append(line, stream),
      progress: (percent, stage) => {
        const now = Date.now();
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        if (stage === lastStage && now - lastProgress < 250 && p < 100) return;
        lastProgress = now;
        lastStage = stage;
        void this.database.db
          .update(jobs)
          .set({ progressPercent: p, progressStage: stage.slice(0, 200), updatedAt: new Date() })
          .where(fence(job, this.id))
          .then(() => publish(this.database, { t: 'state', id: job.id }))
          .catch(() => undefined);
      },
      critical: (fn) => controller.critical(fn),
      run: (command, args, opts) =>
        runProcess(command, args, {
          ...opts,
          signal: controller.signal,
          onLine: (l, s) => {
            log.append(l, s);
            opts?.onLine?.(l, s);
          },
        }),
    };
    log.append(`[skilldock] attempt ${job.attempts} of ${job.maxAttempts} on ${this.id}`, 'info');
    await publish(this.database, { t: 'state', id: job.id });

    let outcome: { state: 'succeeded' | 'failed' | 'canceled' | 'queued'; result?: unknown; error?: string; failure?: ErrorBody; runAfter?: Date };
    try {
      const handler = run(ctx);
      entry.handler = handler;
      const stopped = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => {
          // Cooperative first; a handler that ignores the signal is ended after the grace period.
          setTimeout(() => reject(new Error('handler did not stop in time')), this.opts.cancelGraceMs ?? 10_000).unref();
        });
      });
      const result = await Promise.race([handler, stopped]);
      // A handler that finished the critical step a shutdown waited for has done its work.
      if (controller.signal.aborted && !(entry.reason === 'shutdown' && controller.deferred)) throw new Error('aborted');
      outcome = { state: 'succeeded', result: result ?? null };
    } catch (e) {
      const message = isAppError(e) || e instanceof Error ? e.message : String(e);
      if (entry.reason === 'cancel') outcome = { state: 'canceled', error: 'Canceled by request; its processes were stopped.' };
      else if (entry.reason === 'shutdown')
        outcome =
          def.resumable && job.attempts < job.maxAttempts
            ? { state: 'queued', error: 'Server shut down while running; requeued.' }
            : {
                state: 'failed',
                error: 'The server shut down while this job was running.',
                failure: { code: 'unavailable', message: 'The server shut down while this job was running.' },
              };
      else if (entry.reason === 'lease-lost') return void (await log.flush());
      else if (job.attempts < job.maxAttempts) {
        const wait = def.backoffMs?.(job.attempts) ?? Math.min(60_000, 1000 * 2 ** (job.attempts - 1));
        outcome = { state: 'queued', error: message, runAfter: new Date(Date.now() + wait) };
        log.append(`[skilldock] attempt ${job.attempts} failed: ${message}; retrying in ${Math.round(wait / 1000)}s`, 'info');
      } else outcome = { state: 'failed', error: message, failure: failureBody(e), result: partialResult(e) };
    }
    if (outcome.state === 'failed') log.append(`[skilldock] failed: ${outcome.error}`, 'stderr');
    if (outcome.state === 'canceled') log.append('[skilldock] canceled', 'info');
    if (outcome.state === 'succeeded') log.append('[skilldock] succeeded', 'info');
    await log.flush();
    const final = outcome.state !== 'queued';
    await this.database.db
      .update(jobs)
      .set({
        state: outcome.state,
        result: (outcome.result ?? null) as object | null,
        error: outcome.error ?? null,
        failure: outcome.failure ?? null,
        progressPercent: outcome.state === 'succeeded' ? 100 : undefined,
        progressStage: outcome.state === 'queued' ? 'waiting to retry' : outcome.state,
        leaseOwner: null,
        leaseExpiresAt: null,
        runAfter: outcome.runAfter ?? undefined,
        finishedAt: final ? new Date() : null,
        updatedAt: new Date(),
      })
      .where(fence(job, this.id));
    await publish(this.database, { t: 'state', id: job.id });
    const line = {
      id: job.id,
      kind: job.kind,
      attempt: job.attempts,
      ms: Math.round(performance.now() - t0),
      ...(outcome.error ? { error: outcome.error } : {}),
    };
    if (outcome.state === 'failed') logger.warn(`job ${outcome.state}`, line);
    else logger.info(outcome.state === 'queued' ? 'job queued for a retry' : `job ${outcome.state}`, line);
  }

  /** Extends the leases of running jobs; notices cancel requests and leases lost to the reaper. */
  private async heartbeat(): Promise<void> {
    const ids = this.activeJobIds;
    if (!ids.length) return;
    const attempts = [...this.running.values()].map((r) => sql`(${r.job.id}::text, ${r.job.attempts}::int)`);
    try {
      const rows = await this.database.db
        .update(jobs)
        .set({ leaseExpiresAt: leaseUntil(this.opts.leaseMs) })
        .where(and(sql`(${jobs.id}, ${jobs.attempts}) in (${sql.join(attempts, sql`, `)})`, eq(jobs.leaseOwner, this.id), eq(jobs.state, 'running')))
        .returning({ id: jobs.id, cancelRequested: jobs.cancelRequested });
      const alive = new Set(rows.map((r) => r.id));
      for (const r of rows) if (r.cancelRequested) this.abort(r.id, 'cancel');
      for (const id of ids) if (!alive.has(id)) this.abort(id, 'lease-lost');
    } catch (e) {
      logger.warn('job heartbeat failed', { error: String(e) });
    }
  }

  /** Ends or requeues jobs whose lease expired: their worker died. Runs at start and periodically. */
  async reap(): Promise<number> {
    return reapExpiredJobs(this.database, this.registry);
  }
}
