// The jobs that build a config's skill image: installs (the records were started by beginInstall,
// an update or a retry before the job was queued), a removal (started by beginRemove), a rebuild
// from the base image, and the bulk parent over several install jobs (bulk-install.ts).
import type { JobEventHub } from '../../jobs/hub';
import { jobActor } from '../../jobs/job-actor';
import type { JobHandler } from '../../jobs/kind';
import type { JobRegistry } from '../../jobs/registry';
import { bulkInstallHandler } from './bulk-install';
import { imageRebuildJob, type SkillInstallParams, skillInstallBulkJob, skillInstallJob, skillRemoveJob } from './kinds';
import { type InstallRunDeps, type InstallRunResult, runInstall } from './run-install';
import { runRebuild } from './run-rebuild';
import { runRemove } from './run-remove';

export { enqueueBulkInstall } from './bulk-install';
export * from './kinds';
export type { InstallRunDeps, InstallRunResult } from './run-install';

export interface InstallJobDeps extends InstallRunDeps {
  /** The job bus, on which the bulk parent follows its children. */
  hub: JobEventHub;
}

export function skillInstallHandler(deps: InstallRunDeps): JobHandler<SkillInstallParams, InstallRunResult> {
  return (ctx) => runInstall(deps, ctx, jobActor(ctx.job));
}

export function registerInstallJobs(registry: JobRegistry, deps: InstallJobDeps): void {
  registry.register(skillInstallJob, skillInstallHandler(deps));
  registry.register(skillRemoveJob, (ctx) => runRemove(deps, ctx, jobActor(ctx.job)));
  registry.register(imageRebuildJob, (ctx) => runRebuild(deps, ctx));
  registry.register(skillInstallBulkJob, bulkInstallHandler(deps.hub));
}
