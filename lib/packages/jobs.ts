import type { JobEventHub } from '../jobs/hub';
import type { JobRegistry } from '../jobs/registry';
import type { SecretBox } from '../secrets/crypto';
import { batchHandler, updateCheckHandler } from './batch-jobs';
import type { PackageRuntime } from './context';
import { githubInstallHandler, githubRepairHandler, githubRollbackHandler, githubUninstallHandler, githubUpdateHandler } from './github-jobs';
import {
  githubInstallJob,
  githubRepairJob,
  githubRollbackJob,
  githubUninstallJob,
  githubUpdateJob,
  installDepsJob,
  packageInstallJob,
  packageUninstallJob,
  packageUpdateJob,
  updateAllJob,
  updateCheckJob,
} from './job-kinds';
import { packageJobHandler } from './package-jobs';

export interface PackageJobDeps {
  runtime: PackageRuntime;
  secrets: SecretBox;
  /** The job bus, on which batch parents wait for their children. */
  hub: JobEventHub;
  /** The app version, sent in the User-Agent of GitHub requests. */
  version: string;
}

/** Registers the package domain's kinds with their handlers, built from the domain's dependencies. */
export function registerPackageJobs(registry: JobRegistry, deps: PackageJobDeps): void {
  const { runtime } = deps;
  registry
    .register(packageInstallJob, packageJobHandler(runtime, 'install'))
    .register(packageUninstallJob, packageJobHandler(runtime, 'uninstall'))
    .register(packageUpdateJob, packageJobHandler(runtime, 'update'))
    .register(githubInstallJob, githubInstallHandler(deps))
    .register(githubUpdateJob, githubUpdateHandler(deps))
    .register(githubRollbackJob, githubRollbackHandler(deps))
    .register(githubUninstallJob, githubUninstallHandler(deps))
    .register(githubRepairJob, githubRepairHandler(deps))
    .register(updateCheckJob, updateCheckHandler(deps))
    .register(updateAllJob, batchHandler({ hub: deps.hub, noun: 'Update all', describe: (i) => `${i.spec} ${i.from} → ${i.to}` }))
    .register(installDepsJob, batchHandler({ hub: deps.hub, noun: 'Install missing dependencies', describe: (i) => i.spec }));
}
