'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const createProfileAction = action(ops.createProfile);
export const updateProfileAction = action(ops.updateProfile);
export const deleteProfileAction = action(ops.deleteProfile);
export const evaluateCommandAction = action(ops.evaluateCommand);
export const replayCommandsAction = action(ops.replayCommands);
export const approveExecAction = action(ops.approveExec);
export const rejectExecAction = action(ops.rejectExec);
export const updatePolicySettingsAction = action(ops.updatePolicySettings);
