'use server';
import { ops } from '@/lib/api/operations';
import { action } from '@/lib/http/action';

export const createSandboxConfigAction = action(ops.createSandboxConfig);
export const updateSandboxConfigAction = action(ops.updateSandboxConfig);
export const deleteSandboxConfigAction = action(ops.deleteSandboxConfig);
export const cloneSandboxConfigAction = action(ops.cloneSandboxConfig);
export const setConfigEnvAction = action(ops.setConfigEnv);
export const unsetConfigEnvAction = action(ops.unsetConfigEnv);
export const setSkillEnvAction = action(ops.setSkillEnv);
export const unsetSkillEnvAction = action(ops.unsetSkillEnv);
export const setMyEnvAction = action(ops.setMyEnv);
export const unsetMyEnvAction = action(ops.unsetMyEnv);
export const checkSandboxConfigAction = action(ops.checkSandboxConfig);
export const testSandboxConnectionAction = action(ops.testSandboxConnection);
export const startSandboxAction = action(ops.startSandbox);
export const removeSandboxAction = action(ops.removeSandbox);
export const execSandboxAction = action(ops.execSandbox);
