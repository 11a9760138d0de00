import 'server-only';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import { defineOperation } from '../../http/operation';
import { api } from '../contracts';

/** Personal variables belong to a signed-in user; a token acts for its creator. */
function ownUser(actor: Actor): string {
  if (!actor.userId) throw new AppError('forbidden', 'Personal variables belong to a user; sign in or use a token of that user.');
  return actor.userId;
}

/** Sandbox configs, their env, workspace skill variables and the caller's own variables. */
export const sandboxConfigOps = {
  listSandboxConfigs: defineOperation(api.listSandboxConfigs, async ({ services }) => services.sandboxConfigs.list()),
  createSandboxConfig: defineOperation(api.createSandboxConfig, async ({ services, actor, body }) => services.sandboxConfigs.create(actor, body)),
  getSandboxConfig: defineOperation(api.getSandboxConfig, async ({ services, params }) => services.sandboxConfigs.get(params.id)),
  updateSandboxConfig: defineOperation(api.updateSandboxConfig, async ({ services, actor, params, body }) =>
    services.sandboxConfigs.update(actor, params.id, body),
  ),
  deleteSandboxConfig: defineOperation(api.deleteSandboxConfig, async ({ services, actor, params, query }) =>
    services.sandboxConfigs.delete(actor, params.id, { force: query?.force === 'true' }),
  ),
  cloneSandboxConfig: defineOperation(api.cloneSandboxConfig, async ({ services, actor, params, body }) =>
    services.sandboxConfigs.clone(actor, params.id, body.name),
  ),
  listConfigEnv: defineOperation(api.listConfigEnv, async ({ services, params }) => services.sandboxConfigs.listConfigEnv(params.id)),
  setConfigEnv: defineOperation(api.setConfigEnv, async ({ services, actor, params, body }) =>
    services.sandboxConfigs.setConfigEnv(actor, params.id, body.name, body.value),
  ),
  unsetConfigEnv: defineOperation(api.unsetConfigEnv, async ({ services, actor, params, body }) =>
    services.sandboxConfigs.unsetConfigEnv(actor, params.id, body.name),
  ),
  listSkillEnv: defineOperation(api.listSkillEnv, async ({ services }) => services.sandboxConfigs.listSkillEnv()),
  setSkillEnv: defineOperation(api.setSkillEnv, async ({ services, actor, body }) =>
    services.sandboxConfigs.setSkillEnv(actor, body.skillKey, body.name, body.value),
  ),
  unsetSkillEnv: defineOperation(api.unsetSkillEnv, async ({ services, actor, body }) =>
    services.sandboxConfigs.unsetSkillEnv(actor, body.skillKey, body.name),
  ),
  listMyEnv: defineOperation(api.listMyEnv, async ({ services, actor }) => services.sandboxConfigs.listPersonalEnv(ownUser(actor))),
  setMyEnv: defineOperation(api.setMyEnv, async ({ services, actor, body }) => services.sandboxConfigs.setPersonalEnv(actor, ownUser(actor), body)),
  unsetMyEnv: defineOperation(api.unsetMyEnv, async ({ services, actor, body }) => services.sandboxConfigs.unsetPersonalEnv(actor, ownUser(actor), body)),
};
