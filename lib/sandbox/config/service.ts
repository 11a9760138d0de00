// Sandbox configs as one service object, built by the composition root: it holds what every config
// operation needs (the database, the secret box, what uses a config, the server-side checks, how
// running sandboxes are reached) and binds it to the domain functions, which stay where they are.
// Nothing here knows which door a call came through; permissions stay with the operations.
import type { z } from 'zod';
import type { Database } from '@/db/client';
import type { Actor } from '../../auth/actor';
import { enqueue } from '../../jobs/queue';
import type { SecretBox } from '../../secrets/crypto';
import { testConnection } from '../check/connection-test';
import { sandboxCheckJob } from '../check/job';
import type { ConnectionTestInput } from '../check/schema';
import type { personalEnvInput, personalEnvUnset } from '../env/rules';
import { listEnv, setEnv, unsetEnv } from '../env/store';
import type { InstanceDeps } from '../instances/service';
import { releaseNetwork } from '../network/apply';
import type { SandboxUsage } from './in-use';
import type { CreateConfigInput, PatchConfigInput } from './schema';
import { type ConfigDeps, cloneConfig, createConfig, deleteConfig, getConfig, listConfigs, loadRow, patchConfig } from './store';
import type { ValidateContext } from './validate';

export interface SandboxConfigServiceDeps {
  database: Database;
  secrets: SecretBox;
  usage: SandboxUsage;
  validate: ValidateContext;
  /** Running sandboxes: a deleted config's network goes with it, a connection test builds a backend. */
  instances: InstanceDeps;
}

export class SandboxConfigService {
  /** What the config store is called with. */
  readonly deps: ConfigDeps;

  constructor(private readonly d: SandboxConfigServiceDeps) {
    this.deps = { db: d.database.db, secrets: d.secrets, usage: d.usage, validate: d.validate };
  }

  list() {
    return listConfigs(this.deps);
  }

  create(actor: Actor, input: CreateConfigInput) {
    return createConfig(this.deps, actor, input);
  }

  get(id: string) {
    return getConfig(this.deps, id);
  }

  update(actor: Actor, id: string, patch: PatchConfigInput) {
    return patchConfig(this.deps, actor, id, patch);
  }

  async delete(actor: Actor, id: string, opts: { force?: boolean }) {
    const row = await loadRow(this.deps.db, id);
    const out = await deleteConfig(this.deps, actor, id, opts);
    await releaseNetwork(this.d.instances, row);
    return out;
  }

  clone(actor: Actor, id: string, name: string) {
    return cloneConfig(this.deps, actor, id, name);
  }

  /** Queues the full check of a stored config (404 when there is none). */
  async check(actor: Actor, id: string) {
    const row = await loadRow(this.deps.db, id);
    return enqueue(this.d.database, actor, sandboxCheckJob, { configId: row.id, configName: row.name }, { trusted: true });
  }

  /** Tries a config that is not stored yet. */
  testConnection(input: ConnectionTestInput) {
    return testConnection({ ...this.d.instances, validate: this.deps.validate }, input);
  }

  async listConfigEnv(configId: string) {
    await loadRow(this.deps.db, configId);
    return { items: await listEnv(this.deps.db, { level: 'config', configId }) };
  }

  async setConfigEnv(actor: Actor, configId: string, name: string, value: string) {
    await loadRow(this.deps.db, configId);
    return setEnv(this.deps.db, this.deps.secrets, actor, { level: 'config', configId }, name, value);
  }

  unsetConfigEnv(actor: Actor, configId: string, name: string) {
    return unsetEnv(this.deps.db, actor, { level: 'config', configId }, name);
  }

  async listSkillEnv() {
    return { items: await listEnv(this.deps.db, { level: 'workspace_skill' }) };
  }

  setSkillEnv(actor: Actor, skillKey: string, name: string, value: string) {
    return setEnv(this.deps.db, this.deps.secrets, actor, { level: 'workspace_skill', skillKey }, name, value);
  }

  unsetSkillEnv(actor: Actor, skillKey: string, name: string) {
    return unsetEnv(this.deps.db, actor, { level: 'workspace_skill', skillKey }, name);
  }

  /** One user's own variables: per sandbox config, then per skill. */
  async listPersonalEnv(userId: string) {
    const db = this.deps.db;
    return { items: [...(await listEnv(db, { level: 'personal_sandbox', userId })), ...(await listEnv(db, { level: 'personal_skill', userId }))] };
  }

  async setPersonalEnv(actor: Actor, userId: string, input: z.output<typeof personalEnvInput>) {
    if (input.level === 'personal_sandbox') {
      await loadRow(this.deps.db, input.configId);
      return setEnv(this.deps.db, this.deps.secrets, actor, { level: input.level, userId, configId: input.configId }, input.name, input.value);
    }
    return setEnv(this.deps.db, this.deps.secrets, actor, { level: input.level, userId, skillKey: input.skillKey }, input.name, input.value);
  }

  unsetPersonalEnv(actor: Actor, userId: string, input: z.output<typeof personalEnvUnset>) {
    const scope =
      input.level === 'personal_sandbox' ? { level: input.level, userId, configId: input.configId } : { level: input.level, userId, skillKey: input.skillKey };
    return unsetEnv(this.deps.db, actor, scope, input.name);
  }
}
