import { and, asc, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import type { listJobsQuery } from './schemas';

export type ListJobsQuery = z.infer<typeof listJobsQuery>;

/** What a list shows: the lease and scheduling columns stay in the database. */
const LIST_COLUMNS = {
  id: jobs.id,
  kind: jobs.kind,
  title: jobs.title,
  state: jobs.state,
  params: jobs.params,
  result: jobs.result,
  error: jobs.error,
  failure: jobs.failure,
  progressPercent: jobs.progressPercent,
  progressStage: jobs.progressStage,
  attempts: jobs.attempts,
  maxAttempts: jobs.maxAttempts,
  cancelRequested: jobs.cancelRequested,
  parentId: jobs.parentId,
  retryOf: jobs.retryOf,
  host: jobs.host,
  createdByLabel: jobs.createdByLabel,
  logCount: jobs.logCount,
  createdAt: jobs.createdAt,
  startedAt: jobs.startedAt,
  finishedAt: jobs.finishedAt,
};

export async function listJobs(database: Database, q: ListJobsQuery) {
  const where: SQL[] = [];
  if (q.state) where.push(eq(jobs.state, q.state));
  if (q.kind) where.push(eq(jobs.kind, q.kind));
  if (q.parentId) where.push(eq(jobs.parentId, q.parentId));
  if (q.q) {
    const pat = `%${q.q.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
    where.push(or(ilike(jobs.title, pat), ilike(jobs.kind, pat), ilike(jobs.createdByLabel, pat), eq(jobs.id, q.q))!);
  }
  const asc_ = q.sort === 'created_asc';
  if (q.before) {
    const [at, id] = q.before.split('~');
    const cursor = sql`(${new Date(at).toISOString()}::timestamptz, ${id}::text)`;
    where.push(asc_ ? sql`(${jobs.createdAt}, ${jobs.id}) > ${cursor}` : sql`(${jobs.createdAt}, ${jobs.id}) < ${cursor}`);
  }
  const rows = await database.db
    .select(LIST_COLUMNS)
    .from(jobs)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc_ ? asc(jobs.createdAt) : desc(jobs.createdAt), asc_ ? asc(jobs.id) : desc(jobs.id))
    .limit(q.limit + 1);
  const items = rows.slice(0, q.limit);
  const last = items[items.length - 1];
  return { items, nextBefore: rows.length > q.limit ? `${last.createdAt.toISOString()}~${last.id}` : null };
}
