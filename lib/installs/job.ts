// The skill install as a job: the record was started by beginInstall (or an update or retry)
// before the job was queued; the job runs it on the config's backend (run-install.ts).
import { z } from 'zod';
import { jobActor } from '../jobs/job-actor';
import { defineJobKind, type JobHandler, type JobKind } from '../jobs/kind';
import type { JobRegistry } from '../jobs/registry';
import { type InstallRunDeps, type InstallRunResult, runInstall } from './run-install';

export type { InstallRunDeps, InstallRunResult } from './run-install';

export const skillInstallParams = z.strictObject({
  installId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  /** For the job's title only. */
  skillName: z.string().max(200).optional(),
});
export type SkillInstallParams = z.output<typeof skillInstallParams>;

export const skillInstallJob: JobKind<SkillInstallParams, InstallRunResult> = defineJobKind({
  name: 'skill.install',
  title: (p) => `Install ${p.skillName ?? 'a skill'} into a sandbox config`,
  params: skillInstallParams,
  concurrency: 2,
  maxAttempts: 1,
  // A crashed run ends failed (the record says why); its container and planned image are reclaimed by label.
  resumable: false,
  retryPermission: 'sandboxes.write',
});

export function skillInstallHandler(deps: InstallRunDeps): JobHandler<SkillInstallParams, InstallRunResult> {
  return (ctx) => runInstall(deps, ctx, jobActor(ctx.job));
}

export function registerInstallJobs(registry: JobRegistry, deps: InstallRunDeps): void {
  registry.register(skillInstallJob, skillInstallHandler(deps));
}
