import { registerJobKind } from '../registry';
import { diagnosticsJob } from './diagnostics';
import { githubInstallJob, githubRepairJob, githubRollbackJob, githubUninstallJob, githubUpdateJob } from './github';
import { installDepsJob, updateAllJob, updateCheckJob } from './package-updates';
import { packageInstallJob, packageUninstallJob, packageUpdateJob } from './packages';
import { pipelineSelftestJob } from './pipeline-selftest';
import { skillImportJob } from './skills';

export function registerBuiltinJobKinds(): void {
  registerJobKind(diagnosticsJob);
  registerJobKind(pipelineSelftestJob);
  registerJobKind(packageInstallJob);
  registerJobKind(packageUninstallJob);
  registerJobKind(packageUpdateJob);
  registerJobKind(updateCheckJob);
  registerJobKind(updateAllJob);
  registerJobKind(installDepsJob);
  registerJobKind(githubInstallJob);
  registerJobKind(githubUpdateJob);
  registerJobKind(githubRollbackJob);
  registerJobKind(githubUninstallJob);
  registerJobKind(githubRepairJob);
  registerJobKind(skillImportJob);
}
