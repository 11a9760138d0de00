import 'server-only';
import { defineOperation } from '../../http/operation';
import { checkSkillDeps, listPackages, packageHistory, pinPackage, readUpdates, requestUpdateCheck, startPackageJob, startUpdateAll } from '../../packages';
import { getRuntimeSettings } from '../../settings';
import { startSubmittedDepsInstall } from '../../skills/service/deps';
import { api } from '../contracts';

/** pip, npm and system packages: installs, updates, Update All, pins, history, skill dependencies. */
export const packageOps = {
  listPackages: defineOperation(api.listPackages, async ({ services, query }) => listPackages(services.packages.context(), query, services.database.db)),
  installPackage: defineOperation(api.installPackage, async ({ services, actor, body }) => startPackageJob(services.database, actor, 'install', body)),
  uninstallPackage: defineOperation(api.uninstallPackage, async ({ services, actor, body }) => startPackageJob(services.database, actor, 'uninstall', body)),
  updatePackage: defineOperation(api.updatePackage, async ({ services, actor, body }) => startPackageJob(services.database, actor, 'update', body)),
  packageUpdates: defineOperation(api.packageUpdates, async ({ services }) => readUpdates(services.database)),
  refreshUpdates: defineOperation(api.refreshUpdates, async ({ services, actor }) => requestUpdateCheck(services.database, actor)),
  applyAllUpdates: defineOperation(api.applyAllUpdates, async ({ services, actor, body }) =>
    startUpdateAll(services.database, actor, body, (await getRuntimeSettings(services.database.db)).updateTtlMinutes),
  ),
  pinPackage: defineOperation(api.pinPackage, async ({ services, actor, body }) => pinPackage(services.database.db, actor, body)),
  packageHistory: defineOperation(api.packageHistory, async ({ services, query }) => packageHistory(services.database.db, query.limit)),
  checkDeps: defineOperation(api.checkDeps, async ({ services, body }) => checkSkillDeps(await services.packages.loadContext(services.database.db), body)),
  installDeps: defineOperation(api.installDeps, async ({ services, actor, body }) =>
    startSubmittedDepsInstall(services.database, actor, await services.packages.loadContext(services.database.db), body),
  ),
  packageRuntimes: defineOperation(api.packageRuntimes, async ({ services, query }) =>
    services.packages.loadReport(services.database.db, query.refresh === 'true'),
  ),
};
