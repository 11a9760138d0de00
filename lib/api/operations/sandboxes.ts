import 'server-only';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import { defineOperation } from '../../http/operation';
import { type ConfigDeps, cloneConfig, createConfig, deleteConfig, getConfig, listConfigs, loadRow, patchConfig } from '../../sandbox/config/store';
import { listEnv, setEnv, unsetEnv } from '../../sandbox/env/store';
import { releaseNetwork } from '../../sandbox/network/apply';
import type { Services } from '../../services';
import { api } from '../contracts';

export const configDeps = (s: Services): ConfigDeps => ({
  db: s.database.db,
  secrets: s.secrets,
  usage: s.sandboxUsage,
  validate: { tlsRoots: s.config.dockerTlsRoots, workspaceRoots: s.config.workspaceRoots },
});

/** Personal variables belong to a signed-in user; a token acts for its creator. */
function ownUser(actor: Actor): string {
  if (!actor.userId) throw new AppError('forbidden', 'Personal variables belong to a user; sign in or use a token of that user.');
  return actor.userId;
}

/** Sandbox configs, their env, workspace skill variables and the caller's own variables. */
export const sandboxConfigOps = {
  listSandboxConfigs: defineOperation(api.listSandboxConfigs, async ({ services }) => listConfigs(configDeps(services))),
  createSandboxConfig: defineOperation(api.createSandboxConfig, async ({ services, actor, body }) => createConfig(configDeps(services), actor, body)),
  getSandboxConfig: defineOperation(api.getSandboxConfig, async ({ services, params }) => getConfig(configDeps(services), params.id)),
  updateSandboxConfig: defineOperation(api.updateSandboxConfig, async ({ services, actor, params, body }) =>
    patchConfig(configDeps(services), actor, params.id, body),
  ),
  deleteSandboxConfig: defineOperation(api.deleteSandboxConfig, async ({ services, actor, params, query }) => {
    const row = await loadRow(services.database.db, params.id);
    const out = await deleteConfig(configDeps(services), actor, params.id, { force: query?.force === 'true' });
    await releaseNetwork(services.sandboxes, row);
    return out;
  }),
  cloneSandboxConfig: defineOperation(api.cloneSandboxConfig, async ({ services, actor, params, body }) =>
    cloneConfig(configDeps(services), actor, params.id, body.name),
  ),
  listConfigEnv: defineOperation(api.listConfigEnv, async ({ services, params }) => {
    await loadRow(services.database.db, params.id);
    return { items: await listEnv(services.database.db, { level: 'config', configId: params.id }) };
  }),
  setConfigEnv: defineOperation(api.setConfigEnv, async ({ services, actor, params, body }) => {
    await loadRow(services.database.db, params.id);
    return setEnv(services.database.db, services.secrets, actor, { level: 'config', configId: params.id }, body.name, body.value);
  }),
  unsetConfigEnv: defineOperation(api.unsetConfigEnv, async ({ services, actor, params, body }) =>
    unsetEnv(services.database.db, actor, { level: 'config', configId: params.id }, body.name),
  ),
  listSkillEnv: defineOperation(api.listSkillEnv, async ({ services }) => ({ items: await listEnv(services.database.db, { level: 'workspace_skill' }) })),
  setSkillEnv: defineOperation(api.setSkillEnv, async ({ services, actor, body }) =>
    setEnv(services.database.db, services.secrets, actor, { level: 'workspace_skill', skillKey: body.skillKey }, body.name, body.value),
  ),
  unsetSkillEnv: defineOperation(api.unsetSkillEnv, async ({ services, actor, body }) =>
    unsetEnv(services.database.db, actor, { level: 'workspace_skill', skillKey: body.skillKey }, body.name),
  ),
  listMyEnv: defineOperation(api.listMyEnv, async ({ services, actor }) => {
    const userId = ownUser(actor);
    const db = services.database.db;
    return { items: [...(await listEnv(db, { level: 'personal_sandbox', userId })), ...(await listEnv(db, { level: 'personal_skill', userId }))] };
  }),
  setMyEnv: defineOperation(api.setMyEnv, async ({ services, actor, body }) => {
    const userId = ownUser(actor);
    if (body.level === 'personal_sandbox') {
      await loadRow(services.database.db, body.configId);
      return setEnv(services.database.db, services.secrets, actor, { level: body.level, userId, configId: body.configId }, body.name, body.value);
    }
    return setEnv(services.database.db, services.secrets, actor, { level: body.level, userId, skillKey: body.skillKey }, body.name, body.value);
  }),
  unsetMyEnv: defineOperation(api.unsetMyEnv, async ({ services, actor, body }) => {
    const userId = ownUser(actor);
    const scope =
      body.level === 'personal_sandbox' ? { level: body.level, userId, configId: body.configId } : { level: body.level, userId, skillKey: body.skillKey };
    return unsetEnv(services.database.db, actor, scope, body.name);
  }),
};
