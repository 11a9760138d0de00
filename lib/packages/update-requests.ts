import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { type Actor, systemActor } from '../auth/actor';
import { enqueue } from '../jobs/queue';
import type { JobRow } from '../jobs/types';
import { getRuntimeSettings } from '../settings';
import { updateCheckJob } from './job-kinds';
import { hostUpdateSources } from './update-check';
import { listUpdates, type UpdatesView } from './updates';

const CHECK_LOCK = 0x3fff_0001;

/** Background checks are started by the scheduler, recorded under this name. */
export const schedulerActor: Actor = { ...systemActor, label: 'scheduler' };

/** Queues an update check unless one is already queued or running (single flight); returns the job either way. */
export async function requestUpdateCheck(database: Database, actor: Actor): Promise<{ job: JobRow; started: boolean }> {
  return database.withLock(CHECK_LOCK, async () => {
    const [open] = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, updateCheckJob.name), inArray(jobs.state, ['queued', 'running'])))
      .limit(1);
    if (open) return { job: open, started: false };
    return { job: await enqueue(database, actor, updateCheckJob, { sources: hostUpdateSources() }, { trusted: true }), started: true };
  });
}

/** Time since the last attempt of the least recently tried source; Infinity when one was never tried. */
function oldestAttemptMs(view: UpdatesView, now: number): number {
  return Math.max(...view.sources.map((s) => (s.attemptedAt ? now - Date.parse(s.attemptedAt) : Infinity)));
}

/**
 * The updates table, stale-while-revalidate: when results are older than the TTL (and no check was tried
 * within it), a background check is queued and its job id returned with the (still useful) cached rows.
 */
export async function readUpdates(database: Database): Promise<UpdatesView & { refreshJobId: string | null }> {
  const settings = await getRuntimeSettings(database.db);
  const view = await listUpdates(database.db, settings.updateTtlMinutes);
  let refreshJobId: string | null = null;
  if (view.stale && oldestAttemptMs(view, Date.now()) > settings.updateTtlMinutes * 60_000) {
    refreshJobId = (await requestUpdateCheck(database, schedulerActor)).job.id;
  }
  return { ...view, refreshJobId };
}

/** Scheduled checks: every minute, queue a check when the oldest source is older than the interval. */
export function startUpdateScheduler(database: Database, opts: { tickMs?: number; now?: () => number } = {}): () => void {
  const clock = opts.now ?? Date.now;
  const bootAt = Date.now();
  const tick = async () => {
    const settings = await getRuntimeSettings(database.db);
    if (!settings.updateCheckIntervalHours) return;
    const view = await listUpdates(database.db, settings.updateTtlMinutes);
    const now = clock();
    // A source never tried counts from boot, so a fresh instance does not check the moment it starts.
    const age = Math.max(...view.sources.map((s) => now - (s.attemptedAt ? Date.parse(s.attemptedAt) : bootAt)));
    if (age > settings.updateCheckIntervalHours * 3_600_000) await requestUpdateCheck(database, schedulerActor);
  };
  const timer = setInterval(() => void tick().catch(() => undefined), opts.tickMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
