'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const installPackageAction = action(ops.installPackage);
export const uninstallPackageAction = action(ops.uninstallPackage);
export const updatePackageAction = action(ops.updatePackage);
export const refreshUpdatesAction = action(ops.refreshUpdates);
export const applyAllUpdatesAction = action(ops.applyAllUpdates);
export const pinPackageAction = action(ops.pinPackage);
export const checkDepsAction = action(ops.checkDeps);
export const installDepsAction = action(ops.installDeps);
export const githubRollbackAction = action(ops.githubRollback);
export const githubChannelAction = action(ops.githubChannel);
export const githubRepairAction = action(ops.githubRepair);
