'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const updateSkillEntryAction = action(ops.updateSkillEntry);
export const acknowledgeSkillAction = action(ops.acknowledgeSkill);
export const importSkillAction = action(ops.importSkill);
export const rollbackSkillAction = action(ops.rollbackSkill);
export const uninstallSkillAction = action(ops.uninstallSkill);
export const skillDepsInstallAction = action(ops.skillDepsInstall);
export const refreshSkillsAction = action(ops.refreshSkills);
export const checkSkillUpdatesAction = action(ops.checkSkillUpdates);
export const applySkillUpdatesAction = action(ops.applySkillUpdates);
export const setSkillUpdatePolicyAction = action(ops.setSkillUpdatePolicy);
