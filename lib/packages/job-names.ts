/**
 * The names of the package domain's job kinds, each written once. Kept apart from the descriptors
 * (job-kinds.ts) and free of imports, so the console's browser code can compare a job's kind too.
 */
export const PACKAGE_JOB_NAMES = {
  install: 'package.install',
  uninstall: 'package.uninstall',
  update: 'package.update',
  updateCheck: 'package.updates.check',
  updateAll: 'package.update-all',
  installDeps: 'package.install-deps',
  githubInstall: 'github.install',
  githubUpdate: 'github.update',
  githubRollback: 'github.rollback',
  githubUninstall: 'github.uninstall',
  githubRepair: 'github.repair',
} as const;
