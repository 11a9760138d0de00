import { and, asc, eq, gt } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobLogs, jobs } from '@/db/schema';
import { isFinalState as isFinal } from '@/db/schema/job-states';
import { recordAudit } from '../audit/audit';
import { type Actor, requirePermission } from '../auth/actor';
import { AppError, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { thisHost } from './host';
import type { AnyJobKind, AnyJobSpec, JobKind } from './kind';
import type { JobRegistry } from './registry';
import { BUS_CHANNEL, type BusMessage, type JobRow } from './types';

export { isFinal };

export async function publish(database: Database, msg: BusMessage): Promise<void> {
  await database.notify(BUS_CHANNEL, JSON.stringify(msg));
}

export interface EnqueueOptions {
  parentId?: string | null;
  retryOf?: string | null;
  /** Skip the kind's start permission: the calling feature has checked its own. */
  trusted?: boolean;
  /** The host a host-bound kind runs on; default: this replica's. */
  host?: string;
}

/** Checks the start permission (unless trusted) and parses the params with the kind's schema. */
function prepareJob(actor: Actor, kind: AnyJobKind, rawParams: unknown, trusted: boolean, where = 'params') {
  if (!trusted) {
    if (!kind.startPermission) throw new AppError('forbidden', `Jobs of kind "${kind.name}" are started by their own feature, not directly.`);
    requirePermission(actor, kind.startPermission);
  }
  const parsed = kind.params.safeParse(rawParams ?? {});
  if (!parsed.success) {
    throw new AppError('validation', `Invalid parameters for ${kind.name}.`, {
      issues: parsed.error.issues.map((i) => ({ path: [where, ...i.path].join('.'), message: i.message })),
    });
  }
  return { kind, params: parsed.data as object };
}

type Tx = Parameters<Parameters<Database['db']['transaction']>[0]>[0];

async function insertJob(tx: Tx, actor: Actor, prepared: ReturnType<typeof prepareJob>, opts: EnqueueOptions): Promise<JobRow> {
  const { kind, params } = prepared;
  const [row] = await tx
    .insert(jobs)
    .values({
      id: newId(),
      // Millisecond precision, so the keyset cursor (an ISO time) matches stored values exactly.
      createdAt: new Date(),
      kind: kind.name,
      title: kind.title(params),
      params,
      maxAttempts: kind.maxAttempts,
      parentId: opts.parentId ?? null,
      retryOf: opts.retryOf ?? null,
      host: kind.hostBound ? (opts.host ?? thisHost()) : null,
      createdBy: actor.userId,
      createdByLabel: actor.label,
    })
    .returning();
  await recordAudit(tx, actor, {
    action: opts.retryOf ? 'job.retry' : 'job.start',
    targetType: 'job',
    targetId: row.id,
    after: { kind: kind.name, params: row.params, retryOf: row.retryOf, parentId: row.parentId },
  });
  return row;
}

async function enqueuePrepared(database: Database, actor: Actor, prepared: ReturnType<typeof prepareJob>, opts: EnqueueOptions): Promise<JobRow> {
  const job = await database.db.transaction((tx) => insertJob(tx, actor, prepared, opts));
  await publish(database, { t: 'wake' });
  return job;
}

/** Queues a job of a kind, its params checked by the kind's type and parsed by its schema; audited in the same transaction. */
export async function enqueue<P, R, I>(
  database: Database,
  actor: Actor,
  kind: JobKind<P, R, I>,
  params: NoInfer<I>,
  opts: EnqueueOptions = {},
): Promise<JobRow> {
  return enqueuePrepared(database, actor, prepareJob(actor, kind, params, !!opts.trusted), opts);
}

/** Queues a job of a kind named at run time (the generic start route): the kind must be registered here. */
export async function enqueueByName(
  database: Database,
  registry: JobRegistry,
  actor: Actor,
  name: string,
  rawParams: unknown,
  opts: EnqueueOptions = {},
): Promise<JobRow> {
  const { kind } = registry.require(name);
  return enqueuePrepared(database, actor, prepareJob(actor, kind, rawParams, !!opts.trusted), opts);
}

/**
 * Queues a parent job and its children in one transaction (all or none), children pointing at the
 * parent. The parent usually waits for them (see waitForChildren).
 */
export async function enqueueTree(
  database: Database,
  actor: Actor,
  parent: AnyJobSpec,
  children: AnyJobSpec[],
  opts: { trusted?: boolean } = {},
): Promise<{ parent: JobRow; children: JobRow[] }> {
  const trusted = !!opts.trusted;
  const preparedParent = prepareJob(actor, parent.kind, parent.params, trusted);
  const preparedChildren = children.map((c, i) => prepareJob(actor, c.kind, c.params, trusted, `children.${i}.params`));
  const tree = await database.db.transaction(async (tx) => {
    const p = await insertJob(tx, actor, preparedParent, {});
    const rows: JobRow[] = [];
    for (const c of preparedChildren) rows.push(await insertJob(tx, actor, c, { parentId: p.id }));
    return { parent: p, children: rows };
  });
  await publish(database, { t: 'wake' });
  return tree;
}

export async function getJob(database: Database, id: string): Promise<JobRow> {
  const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
  if (!row) throw notFound('Job');
  return row;
}

/** Queued jobs end at once; running jobs are asked to stop and their processes are killed by the worker. */
export async function cancelJob(database: Database, actor: Actor, id: string): Promise<JobRow> {
  const row = await database.db.transaction(async (tx) => {
    const [before] = await tx.select().from(jobs).where(eq(jobs.id, id)).for('update');
    if (!before) throw notFound('Job');
    if (isFinal(before.state)) throw new AppError('invalid_state', `The job already ended (${before.state}); there is nothing to cancel.`);
    const now = new Date();
    const [after] =
      before.state === 'queued'
        ? await tx
            .update(jobs)
            .set({
              state: 'canceled',
              cancelRequested: true,
              finishedAt: now,
              updatedAt: now,
              error: `Canceled by ${actor.label} before it started.`,
              progressStage: 'canceled',
            })
            .where(eq(jobs.id, id))
            .returning()
        : await tx.update(jobs).set({ cancelRequested: true, updatedAt: now, progressStage: 'canceling' }).where(eq(jobs.id, id)).returning();
    // Its children go with it: queued ones end now, running ones are asked to stop.
    const canceled = await tx
      .update(jobs)
      .set({
        state: 'canceled',
        cancelRequested: true,
        finishedAt: now,
        updatedAt: now,
        error: `Canceled with its parent by ${actor.label}.`,
        progressStage: 'canceled',
      })
      .where(and(eq(jobs.parentId, id), eq(jobs.state, 'queued')))
      .returning({ id: jobs.id });
    const stopping = await tx
      .update(jobs)
      .set({ cancelRequested: true, updatedAt: now, progressStage: 'canceling' })
      .where(and(eq(jobs.parentId, id), eq(jobs.state, 'running'), eq(jobs.cancelRequested, false)))
      .returning({ id: jobs.id });
    await recordAudit(tx, actor, {
      action: 'job.cancel',
      targetType: 'job',
      targetId: id,
      before: { state: before.state },
      after: {
        state: after.state,
        cancelRequested: true,
        ...(canceled.length || stopping.length ? { children: { canceled: canceled.map((c) => c.id), stopping: stopping.map((c) => c.id) } } : {}),
      },
    });
    return { after, canceled, stopping };
  });
  for (const c of [{ id }, ...row.stopping]) await publish(database, { t: 'cancel', id: c.id });
  for (const c of [{ id }, ...row.canceled, ...row.stopping]) await publish(database, { t: 'state', id: c.id });
  return row.after;
}

/**
 * Starts a new job with the same kind and parameters as an ended one, if the actor holds the
 * permission the kind needs (see JobKind.retryPermission); params a person must give again are dropped.
 */
export async function retryJob(database: Database, registry: JobRegistry, actor: Actor, id: string): Promise<JobRow> {
  const old = await getJob(database, id);
  if (!isFinal(old.state) || old.state === 'succeeded') {
    throw new AppError('invalid_state', `Only failed or canceled jobs can be retried; this one is ${old.state}.`);
  }
  const { kind } = registry.require(old.kind);
  const permission = kind.retryPermission ?? kind.startPermission;
  if (!permission) throw new AppError('forbidden', `Jobs of kind "${kind.name}" cannot be retried; start them again from their own page.`);
  requirePermission(actor, permission);
  const params = kind.retryParams ? kind.retryParams(old.params) : old.params;
  return enqueueByName(database, registry, actor, old.kind, params, {
    parentId: old.parentId,
    retryOf: old.id,
    trusted: true,
    ...(old.host ? { host: old.host } : {}),
  });
}

export { type ListJobsQuery, listJobs } from './list';
export { jobLogsQuery, listJobsQuery, startJobInput } from './schemas';

export async function readJobLogs(database: Database, id: string, after: number, limit: number) {
  return database.db
    .select({ seq: jobLogs.seq, at: jobLogs.at, stream: jobLogs.stream, line: jobLogs.line })
    .from(jobLogs)
    .where(and(eq(jobLogs.jobId, id), gt(jobLogs.seq, after)))
    .orderBy(asc(jobLogs.seq))
    .limit(limit);
}

/** The whole log as plain text, streamed page by page (for downloads of large logs). */
export function jobLogText(database: Database, id: string): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let after = 0;
  return new ReadableStream({
    async pull(controller) {
      const rows = await readJobLogs(database, id, after, 5000);
      if (!rows.length) return controller.close();
      after = rows[rows.length - 1].seq;
      controller.enqueue(enc.encode(rows.map((r) => `${r.at.toISOString()} ${r.stream === 'stderr' ? 'ERR ' : ''}${r.line}\n`).join('')));
    },
  });
}
