import { and, count, eq, inArray } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs, sandboxEnvVars } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { AppError, type FieldIssue } from '../../core/errors';
import { newId } from '../../core/ids';
import { storedPolicy } from '../../network/policy/open';
import { clonePolicyColumns, policySecrets, preparePolicy } from '../../network/store';
import type { SecretBox } from '../../secrets/crypto';
import { configEnvRows, envSealContext } from '../env/store';
import { CONFIG_LABEL, type ConfigUsage, isUsed, type SandboxUsage } from './in-use';
import { assertUnlocked, lockConfig, unlockConfig } from './lock';
import {
  type AnyConfig,
  CONFIG_SCHEMAS,
  type CreateConfigInput,
  IDENTITY_FIELDS,
  type PatchConfigInput,
  type SandboxBackend,
  type SandboxConfigView,
  SECRET_FIELDS,
  SECRET_MASK,
} from './schema';
import { assertSecretStaysHome } from './secret-endpoint';
import { type ValidateContext, validateOnServer } from './validate';
import { auditForm, type ConfigRow, configView, openSecrets, sealSecrets, splitSecrets } from './view';

/** The list shows "unknown" instances for a config whose engine does not answer within this. */
const LIST_INVENTORY_MS = 3000;

export interface ConfigDeps {
  db: AppDb;
  secrets: SecretBox;
  usage: SandboxUsage;
  validate: ValidateContext;
}

/** The stored row, or 404. */
export async function loadRow(db: AppDb, id: string): Promise<ConfigRow> {
  const [row] = await db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, id));
  if (!row) throw new AppError('not_found', 'This sandbox config was not found.');
  return row;
}

async function envCounts(db: AppDb, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: sandboxEnvVars.configId, n: count() })
    .from(sandboxEnvVars)
    .where(and(eq(sandboxEnvVars.level, 'config'), inArray(sandboxEnvVars.configId, ids)))
    .groupBy(sandboxEnvVars.configId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

export async function listConfigs(deps: ConfigDeps): Promise<{ items: (SandboxConfigView & { instances: number | null })[] }> {
  const rows = await deps.db.select().from(sandboxConfigs).orderBy(sandboxConfigs.name);
  const counts = await envCounts(
    deps.db,
    rows.map((r) => r.id),
  );
  const items = await Promise.all(
    rows.map(async (r) => {
      const u = await deps.usage.configInUse(r.id, LIST_INVENTORY_MS);
      return { ...configView(r, counts.get(r.id) ?? 0), instances: u.verified ? u.instances.length : null };
    }),
  );
  return { items };
}

export async function getConfig(deps: ConfigDeps, id: string): Promise<SandboxConfigView & { usage: ConfigUsage }> {
  const row = await loadRow(deps.db, id);
  const counts = await envCounts(deps.db, [id]);
  return { ...configView(row, counts.get(id) ?? 0), usage: await deps.usage.configInUse(id) };
}

/** Zod issues of the merged config, named as the request names them (config.<field>). */
export function parseConfig(backend: SandboxBackend, raw: Record<string, unknown>): AnyConfig {
  const r = CONFIG_SCHEMAS[backend].safeParse(raw);
  if (r.success) return r.data;
  const issues: FieldIssue[] = r.error.issues.map((i) => ({ path: ['config', ...i.path].join('.'), message: i.message }));
  throw new AppError('validation', issues[0]?.message ?? 'The config is not valid.', { issues });
}

function requireSecrets(backend: SandboxBackend, secret: Record<string, string>): void {
  const missing = SECRET_FIELDS[backend].filter((f) => !secret[f]);
  if (missing.length)
    throw new AppError('validation', `Enter the ${missing.join(', ')}.`, { issues: missing.map((f) => ({ path: `config.${f}`, message: `Enter the ${f}.` })) });
}

async function assertNameFree(db: AppDb, name: string, exceptId?: string): Promise<void> {
  const [row] = await db.select({ id: sandboxConfigs.id }).from(sandboxConfigs).where(eq(sandboxConfigs.name, name));
  if (row && row.id !== exceptId)
    throw new AppError('exists', `A sandbox config named "${name}" already exists.`, { issues: [{ path: 'name', message: 'This name is taken.' }] });
}

export async function createConfig(deps: ConfigDeps, actor: Actor, input: CreateConfigInput): Promise<SandboxConfigView> {
  const config = parseConfig(input.backend, input.config as Record<string, unknown>);
  const { plain, secret } = splitSecrets(input.backend, config);
  if (Object.values(secret).includes(SECRET_MASK))
    throw new AppError('validation', 'There is no stored secret to keep yet; enter it.', {
      issues: [{ path: 'config.apiKey', message: 'Enter the API key.' }],
    });
  requireSecrets(input.backend, secret);
  await validateOnServer(input.backend, config, deps.validate);
  await assertNameFree(deps.db, input.name);
  const id = newId();
  const network = input.network ? preparePolicy(deps.secrets, id, input.backend, input.network, {}, 'network') : null;
  const envRows = configEnvRows(deps.secrets, actor, id, input.env ?? []);
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(sandboxConfigs)
      .values({
        id,
        name: input.name,
        backend: input.backend,
        description: input.description,
        config: plain,
        ...sealSecrets(deps.secrets, id, secret),
        ...(network
          ? { networkPolicy: network.networkPolicy, networkSecretsSealed: network.networkSecretsSealed, networkSecretNames: network.networkSecretNames }
          : {}),
        createdBy: actor.label,
        updatedBy: actor.label,
      })
      .returning();
    if (envRows.length) await tx.insert(sandboxEnvVars).values(envRows);
    await recordAudit(tx, actor, {
      action: 'sandbox.config.create',
      targetType: 'sandbox_config',
      targetId: id,
      after: { ...auditForm(row), ...(envRows.length ? { env: Object.fromEntries(envRows.map((r) => [r.name, '***'])) } : {}) },
    });
    return configView(row, envRows.length);
  });
}

/** Refuses when the inventory is unknown or anything uses the config; 409 with the inventory. */
async function assertNotInUse(usage: SandboxUsage, id: string, what: string, known?: ConfigUsage): Promise<void> {
  const u = known ?? (await usage.configInUse(id));
  if (!u.verified)
    throw new AppError('inventory_unverifiable', `Could not list what uses this config, so ${what} is refused; check the engine or cluster and retry.`, {
      details: { instances: u.instances, agents: u.agents },
      ...(what === 'deleting it'
        ? { hint: 'An admin can delete it anyway with force (DELETE …?force=true); what may be left on the engine is then named.' }
        : {}),
    });
  if (isUsed(u))
    throw new AppError('config_in_use', `${u.instances.length} sandbox(es) and ${u.agents.length} agent(s) use this config, so ${what} is refused.`, {
      details: { instances: u.instances, agents: u.agents },
      hint: 'Stop those sandboxes and unbind those agents, or clone the config and change the clone.',
    });
}

const differs = (a: unknown, b: unknown) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);

export async function patchConfig(deps: ConfigDeps, actor: Actor, id: string, patch: PatchConfigInput): Promise<SandboxConfigView> {
  const row = await loadRow(deps.db, id);
  assertUnlocked(row, actor);
  const backend = patch.backend ?? row.backend;
  const sameBackend = backend === row.backend;
  const stored = openSecrets(deps.secrets, row);
  const merged: Record<string, unknown> = sameBackend ? { ...row.config, ...patch.config } : { ...patch.config };
  // "***" or an absent secret keeps the stored one; any other value replaces it, "" clears it.
  const secret: Record<string, string> = {};
  const kept: string[] = [];
  for (const f of SECRET_FIELDS[backend]) {
    const v = merged[f];
    if ((v === undefined || v === SECRET_MASK) && sameBackend && stored[f]) {
      secret[f] = stored[f];
      kept.push(f);
    } else if (v === SECRET_MASK)
      throw new AppError('validation', 'There is no stored secret to keep; enter it.', { issues: [{ path: `config.${f}`, message: `Enter the ${f}.` }] });
    else if (typeof v === 'string' && v !== '') secret[f] = v;
    delete merged[f];
  }
  const config = parseConfig(backend, merged);
  if (!sameBackend) preparePolicy(deps.secrets, id, backend, storedPolicy(row), policySecrets(deps.secrets, row), 'network');
  const { plain } = splitSecrets(backend, config);
  requireSecrets(backend, secret);
  const configChanged = !sameBackend || differs(plain, row.config) || differs(secret, stored);
  if (configChanged) await validateOnServer(backend, { ...config, ...secret } as AnyConfig, deps.validate);
  if (patch.name !== undefined && patch.name !== row.name) await assertNameFree(deps.db, patch.name, id);
  const identityChanged =
    !sameBackend ||
    IDENTITY_FIELDS[backend].some((f) => (SECRET_FIELDS[backend].includes(f) ? differs(secret[f], stored[f]) : differs(plain[f], row.config[f])));
  const staysHome = () => assertSecretStaysHome(backend, row.config as Record<string, unknown>, config, kept, 'send it to a new endpoint');
  if (identityChanged) {
    await lockConfig(deps.db, id, actor);
    try {
      await assertNotInUse(deps.usage, id, 'changing its backend or endpoint');
      staysHome();
    } catch (e) {
      await unlockConfig(deps.db, id, actor);
      throw e;
    }
  } else staysHome();
  const recheck = identityChanged || differs(plain.image, row.config.image) || differs(plain.templateId, row.config.templateId);
  try {
    return await deps.db.transaction(async (tx) => {
      const [after] = await tx
        .update(sandboxConfigs)
        .set({
          name: patch.name ?? row.name,
          description: patch.description ?? row.description,
          backend,
          config: plain,
          ...sealSecrets(deps.secrets, id, secret),
          // What the last full check proved no longer holds for another engine or image.
          ...(recheck ? { enabled: false } : {}),
          lockedBy: null,
          lockedUntil: null,
          updatedAt: new Date(),
          updatedBy: actor.label,
        })
        .where(eq(sandboxConfigs.id, id))
        .returning();
      await recordAudit(tx, actor, {
        action: 'sandbox.config.update',
        targetType: 'sandbox_config',
        targetId: id,
        before: auditForm(row),
        after: auditForm(after),
      });
      const counts = await envCounts(tx as unknown as AppDb, [id]);
      return configView(after, counts.get(id) ?? 0);
    });
  } finally {
    if (identityChanged) await unlockConfig(deps.db, id, actor);
  }
}

/** Where a config's sandboxes live, for the warning of a forced delete. */
function endpointOf(row: ConfigRow): string {
  const c = row.config as { host?: string; apiUrl?: string };
  return row.backend === 'docker' ? c.host || 'the local Docker engine' : c.apiUrl || `the ${row.backend} API`;
}

/**
 * Deletes a config nothing uses. `force` deletes it when its engine cannot be reached to list what
 * uses it, naming what may be left there (answer and audit); a known use still refuses it.
 */
export async function deleteConfig(deps: ConfigDeps, actor: Actor, id: string, opts: { force?: boolean } = {}): Promise<{ deleted: true; warning?: string }> {
  const row = await loadRow(deps.db, id);
  await lockConfig(deps.db, id, actor);
  let warning: string | undefined;
  try {
    const u = await deps.usage.configInUse(id);
    if (!u.verified && opts.force && !isUsed(u)) {
      warning = `${endpointOf(row)} could not be reached, so what runs there was not checked: sandboxes of this config (labelled ${CONFIG_LABEL}=${id}), their networks and volumes may be left on it. Remove them there by hand.`;
    } else await assertNotInUse(deps.usage, id, 'deleting it', u);
    await deps.db.transaction(async (tx) => {
      await tx.delete(sandboxEnvVars).where(eq(sandboxEnvVars.configId, id));
      await tx.delete(sandboxConfigs).where(eq(sandboxConfigs.id, id));
      await recordAudit(tx, actor, {
        action: 'sandbox.config.delete',
        targetType: 'sandbox_config',
        targetId: id,
        before: auditForm(row),
        ...(warning ? { after: { forced: true, endpoint: endpointOf(row), mayRemain: warning } } : {}),
      });
    });
  } catch (e) {
    await unlockConfig(deps.db, id, actor);
    throw e;
  }
  return warning ? { deleted: true, warning } : { deleted: true };
}

/** A new config with the same fields, secrets and config-level env: the way past the identity freeze. */
export async function cloneConfig(deps: ConfigDeps, actor: Actor, id: string, name: string): Promise<SandboxConfigView> {
  const row = await loadRow(deps.db, id);
  await assertNameFree(deps.db, name);
  const newIdValue = newId();
  const secret = openSecrets(deps.secrets, row);
  return deps.db.transaction(async (tx) => {
    const [copy] = await tx
      .insert(sandboxConfigs)
      .values({
        id: newIdValue,
        name,
        backend: row.backend,
        description: row.description,
        config: row.config,
        ...sealSecrets(deps.secrets, newIdValue, secret),
        ...clonePolicyColumns(deps.secrets, row, newIdValue),
        createdBy: actor.label,
        updatedBy: actor.label,
      })
      .returning();
    const env = await tx
      .select()
      .from(sandboxEnvVars)
      .where(and(eq(sandboxEnvVars.level, 'config'), eq(sandboxEnvVars.configId, id)));
    for (const e of env) {
      const value = deps.secrets.open(e.valueSealed, envSealContext({ level: 'config', configId: id }, e.name));
      await tx.insert(sandboxEnvVars).values({
        id: newId(),
        level: 'config',
        configId: newIdValue,
        name: e.name,
        valueSealed: deps.secrets.seal(value, envSealContext({ level: 'config', configId: newIdValue }, e.name)),
        updatedBy: actor.label,
      });
    }
    await recordAudit(tx, actor, {
      action: 'sandbox.config.clone',
      targetType: 'sandbox_config',
      targetId: newIdValue,
      before: { clonedFrom: id, name: row.name },
      after: auditForm(copy),
    });
    return configView(copy, env.length);
  });
}
