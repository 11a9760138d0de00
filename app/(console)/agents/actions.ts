'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const createAgentAction = action(ops.createAgent);
export const updateAgentAction = action(ops.updateAgent);
export const deleteAgentAction = action(ops.deleteAgent);
export const putAgentDefaultsAction = action(ops.putAgentDefaults);
export const previewAllowlistsAction = action(ops.previewAllowlists);
export const saveAllowlistsAction = action(ops.saveAllowlists);
export const setAgentEnvAction = action(ops.setAgentEnv);
export const unsetAgentEnvAction = action(ops.unsetAgentEnv);
