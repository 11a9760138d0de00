'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const updateRuntimeSettingsAction = action(ops.updateRuntimeSettings);
export const updateGithubSettingsAction = action(ops.updateGithubSettings);
export const updateSkillsSettingsAction = action(ops.updateSkillsSettings);
export const createUserAction = action(ops.createUser);
export const updateUserAction = action(ops.updateUser);
export const resetPasswordAction = action(ops.resetPassword);
export const createTokenAction = action(ops.createToken);
export const revokeTokenAction = action(ops.revokeToken);
export const changeOwnPasswordAction = action(ops.changeOwnPassword);
export const updateTerminalSettingsAction = action(ops.updateTerminalSettings);
