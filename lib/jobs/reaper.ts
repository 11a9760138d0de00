import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { logger } from '../core/logger';
import { JobLogWriter } from './log-writer';
import { publish } from './queue';
import type { JobRegistry } from './registry';

/**
 * Ends or requeues jobs whose lease expired: their worker died. A resumable kind with attempts
 * left runs again; anything else ends failed with the reason in its log and error.
 */
export async function reapExpiredJobs(database: Database, registry: JobRegistry): Promise<number> {
  try {
    const expired = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.state, 'running'), lt(jobs.leaseExpiresAt, sql`now()`)));
    for (const job of expired) {
      // A kind unknown to this process cannot be resumed here: end it.
      const resumable = registry.get(job.kind)?.kind.resumable ?? false;
      const requeue = resumable && job.attempts < job.maxAttempts;
      const reason = `The worker running this job (${job.leaseOwner ?? 'unknown'}) stopped responding; its lease expired at ${job.leaseExpiresAt?.toISOString()}.`;
      const [updated] = await database.db
        .update(jobs)
        .set(
          requeue
            ? { state: 'queued', leaseOwner: null, leaseExpiresAt: null, progressStage: 'resuming after a crash', error: reason, updatedAt: new Date() }
            : {
                state: 'failed',
                leaseOwner: null,
                leaseExpiresAt: null,
                progressStage: 'failed',
                error: reason,
                failure: { code: 'unavailable', message: reason },
                finishedAt: new Date(),
                updatedAt: new Date(),
              },
        )
        .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running'), lt(jobs.leaseExpiresAt, sql`now()`)))
        .returning();
      if (!updated) continue;
      const log = await JobLogWriter.open(database, job.id);
      log.append(`[skilldock] ${reason} ${requeue ? 'Requeued to run again.' : 'Ended as failed.'}`, requeue ? 'info' : 'stderr');
      await log.flush();
      await publish(database, { t: 'state', id: job.id });
      if (requeue) await publish(database, { t: 'wake' });
    }
    return expired.length;
  } catch (e) {
    logger.warn('job reaper failed', { error: String(e) });
    return 0;
  }
}
