import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';

const ROWS_PER_BATCH = 5000;

/** Deletes audit records older than `cutoff` in bounded batches; returns how many went. */
export async function pruneAudit(database: Database, cutoff: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const [r] = await database.rows<{ n: number }>(
      sql`with d as (delete from audit_log where id in (select id from audit_log where at < ${cutoff.toISOString()}::timestamptz limit ${ROWS_PER_BATCH}) returning 1) select count(*)::int as n from d`,
    );
    const n = Number(r?.n ?? 0);
    deleted += n;
    if (n < ROWS_PER_BATCH) return deleted;
  }
}
