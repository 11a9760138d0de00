import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { FINAL_STATES } from '@/db/schema/job-states';
import { BUS_CHANNEL, type BusMessage } from './types';

const JOBS_PER_BATCH = 100;
const LOG_ROWS_PER_BATCH = 10_000;

/**
 * Deletes jobs that ended before `cutoff`, with their logs. Logs go first in bounded batches (a job
 * may hold millions of lines), then the jobs; running and queued jobs are never touched.
 * Returns the number of jobs deleted.
 */
export async function pruneFinishedJobs(database: Database, cutoff: Date): Promise<number> {
  const final = sql.join(
    FINAL_STATES.map((s) => sql`${s}`),
    sql`, `,
  );
  let deleted = 0;
  for (;;) {
    const batch = await database.rows<{ id: string }>(
      sql`select id from jobs where state in (${final}) and finished_at < ${cutoff.toISOString()}::timestamptz limit ${JOBS_PER_BATCH}`,
    );
    if (!batch.length) {
      // Deleting sends no state notice of its own; readers that keep job pages must hear of it.
      if (deleted) await database.notify(BUS_CHANNEL, JSON.stringify({ t: 'wake' } satisfies BusMessage));
      return deleted;
    }
    const ids = sql.join(
      batch.map((b) => sql`${b.id}`),
      sql`, `,
    );
    for (;;) {
      const gone = await database.rows<{ n: number }>(
        sql`with d as (delete from job_logs where ctid in (select ctid from job_logs where job_id in (${ids}) limit ${LOG_ROWS_PER_BATCH}) returning 1) select count(*)::int as n from d`,
      );
      if (Number(gone[0]?.n ?? 0) < LOG_ROWS_PER_BATCH) break;
    }
    await database.rows(sql`delete from jobs where id in (${ids}) and state in (${final})`);
    deleted += batch.length;
  }
}
