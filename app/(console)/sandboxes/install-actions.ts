'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const installConfigSkillAction = action(ops.installConfigSkill);
export const bulkInstallAction = action(ops.bulkInstallConfigSkills);
export const installSkillIntoConfigsAction = action(ops.installSkillIntoConfigs);
export const patchInstallAction = action(ops.patchConfigSkill);
export const removeInstallAction = action(ops.removeConfigSkill);
export const retryInstallAction = action(ops.retryConfigSkill);
export const stopInstallAction = action(ops.stopConfigSkill);
export const updateInstallAction = action(ops.updateConfigSkill);
export const rebuildImageAction = action(ops.rebuildConfigImage);
