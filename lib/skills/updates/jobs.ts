/** The update jobs of the skills domain (check, apply), their single-flight start and the periodic check. */
import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { type Actor, systemActor } from '../../auth/actor';
import { lockKeyOf } from '../../core/lock-key';
import { logger } from '../../core/logger';
import { jobActor } from '../../jobs/job-actor';
import { defineJobKind, type JobHandler, type JobKind } from '../../jobs/kind';
import { enqueue } from '../../jobs/queue';
import type { JobRegistry } from '../../jobs/registry';
import type { JobContext, JobRow } from '../../jobs/types';
import { getSkillsSettings } from '../../settings/store';
import type { SkillJobDeps } from '../service/jobs';
import { type ApplyContext, type ApplyResult, applyUpdates } from './apply';
import { type CheckResult, checkUpdates } from './check';
import { updatesApplyInput, updatesCheckInput } from './schemas';

const names = (slugs: string[] | undefined, every: string) =>
  !slugs ? every : slugs.length <= 3 ? slugs.join(', ') : `${slugs.slice(0, 3).join(', ')} and ${slugs.length - 3} more`;

const checkParams = updatesCheckInput.extend({ scheduled: z.boolean().optional() });
type CheckParams = z.infer<typeof checkParams>;
type ApplyParams = z.infer<typeof updatesApplyInput>;

export const skillUpdateCheckJob: JobKind<CheckParams, { results: CheckResult[] }, z.input<typeof checkParams>> = defineJobKind({
  name: 'skill.update-check',
  title: (p: CheckParams) => `${p.scheduled ? 'Scheduled check' : 'Check'} for skill updates: ${names(p.slugs, 'every imported skill')}`,
  params: checkParams,
  concurrency: 1,
  maxAttempts: 1,
  resumable: true,
  retryPermission: 'skills.write',
});

export const skillUpdateApplyJob: JobKind<
  ApplyParams,
  { results: ApplyResult[]; applied: number; failed: number },
  z.input<typeof updatesApplyInput>
> = defineJobKind({
  name: 'skill.update-apply',
  title: (p: ApplyParams) => `Update skills: ${names(p.slugs, 'every skill with an update')}`,
  params: updatesApplyInput,
  concurrency: 1,
  maxAttempts: 1,
  resumable: false,
  retryPermission: 'skills.write',
});

function contextOf(deps: SkillJobDeps, ctx: JobContext<unknown>): ApplyContext {
  return {
    db: ctx.database.db,
    dataDir: deps.dataDir,
    shared: deps.shared,
    actor: jobActor(ctx.job),
    jobId: ctx.job.id,
    signal: ctx.signal,
    log: (l) => ctx.log(l, 'info'),
    progress: (p, s) => ctx.progress(p, s),
  };
}

const announce = (deps: SkillJobDeps) =>
  deps.catalog.changed().catch((e) => logger.warn('the skill change could not be announced to other replicas', { error: String(e) }));

export function skillUpdateCheckHandler(deps: SkillJobDeps): JobHandler<CheckParams, { results: CheckResult[] }> {
  return async (ctx) => {
    try {
      return await checkUpdates({ ...contextOf(deps, ctx), scheduled: ctx.params.scheduled }, ctx.params.slugs);
    } finally {
      await announce(deps);
    }
  };
}

export function skillUpdateApplyHandler(deps: SkillJobDeps): JobHandler<ApplyParams, { results: ApplyResult[]; applied: number; failed: number }> {
  return async (ctx) => {
    try {
      const out = await applyUpdates(contextOf(deps, ctx), ctx.params.slugs);
      ctx.log(`${out.applied} updated, ${out.failed} failed`);
      return out;
    } finally {
      await announce(deps);
    }
  };
}

export function registerSkillUpdateJobs(registry: JobRegistry, deps: SkillJobDeps): void {
  registry.register(skillUpdateCheckJob, skillUpdateCheckHandler(deps));
  registry.register(skillUpdateApplyJob, skillUpdateApplyHandler(deps));
}

const CHECK_LOCK = lockKeyOf('skills:update-check');

/** Queues a check unless one is already queued or running (single flight across replicas); returns the job either way. */
export async function requestSkillUpdateCheck(database: Database, actor: Actor, params: CheckParams): Promise<{ job: JobRow; started: boolean }> {
  return database.withLock(CHECK_LOCK, async () => {
    const [open] = await database.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, skillUpdateCheckJob.name), inArray(jobs.state, ['queued', 'running'])))
      .limit(1);
    if (open && !params.slugs) return { job: open, started: false };
    return { job: await enqueue(database, actor, skillUpdateCheckJob, params, { trusted: true }), started: true };
  });
}

export const skillUpdateScheduler: Actor = { ...systemActor, label: 'skill update scheduler' };

/**
 * Every tick, queues a scheduled check when the last one is older than `updateCheckHours` (0 = off).
 * The time comes from the jobs table, so replicas agree; the check itself honours each source's policy.
 */
export function startSkillUpdateScheduler(database: Database, opts: { tickMs?: number } = {}): () => void {
  const bootAt = Date.now();
  const tick = async () => {
    const settings = await getSkillsSettings(database.db);
    if (!settings.updateCheckHours) return;
    const [last] = await database.db
      .select({ createdAt: jobs.createdAt })
      .from(jobs)
      .where(eq(jobs.kind, skillUpdateCheckJob.name))
      .orderBy(desc(jobs.createdAt))
      .limit(1);
    const since = last ? last.createdAt.getTime() : bootAt;
    if (Date.now() - since > settings.updateCheckHours * 3_600_000) await requestSkillUpdateCheck(database, skillUpdateScheduler, { scheduled: true });
  };
  const timer = setInterval(() => void tick().catch((e) => logger.warn('skill update scheduler', { error: String(e) })), opts.tickMs ?? 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
