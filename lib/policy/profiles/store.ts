// Risk profiles: the presets from code (read-only) and the custom ones in risk_profiles, each write
// audited in its transaction. An edit names the revision it started from; a stale one is refused
// (409). A profile agents still use cannot be deleted (409 naming them). An agent's effective rules
// are its profile's (none: balanced) with its overrides on top; deny groups merge per group.
import { asc, eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { agents, riskProfiles } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import { PRESETS, type PresetName, type ProfileRules, profileRulesSchema } from '../types';
import type { PolicyOverrides } from './schema';

export const DEFAULT_PROFILE: PresetName = 'balanced';

export interface PresetDef {
  description: string;
  rules: ProfileRules;
}

export interface ProfileStoreDeps {
  db: AppDb;
  presets: Readonly<Record<PresetName, PresetDef>>;
}

export interface ProfileView {
  name: string;
  description: string;
  rules: ProfileRules;
  builtin: boolean;
  revision: number;
  usedBy: string[];
  createdAt: string | null;
  createdBy: string | null;
  updatedAt: string | null;
  updatedBy: string | null;
}

type Row = typeof riskProfiles.$inferSelect;
type Tx = Parameters<Parameters<AppDb['transaction']>[0]>[0];

export const isPreset = (name: string): name is PresetName => (PRESETS as readonly string[]).includes(name);

const notFound = (name: string) =>
  new AppError('not_found', `No risk profile "${name}" exists.`, {
    hint: 'The presets are locked_down, balanced and yolo; custom ones are listed on the Exec policy page.',
  });
const readOnly = (name: string) =>
  new AppError('invalid_state', `"${name}" is a built-in preset and cannot be changed or deleted.`, {
    hint: 'Create a custom profile (start from the preset’s rules) and assign it to agents.',
  });

/** Stored rules re-validated on read (a row from an older schema gets today's defaults for new fields). */
const rulesOf = (row: Row): ProfileRules => profileRulesSchema.parse(row.rules);

function rowView(row: Row, usedBy: string[]): ProfileView {
  return {
    name: row.name,
    description: row.description,
    rules: rulesOf(row),
    builtin: false,
    revision: row.revision,
    usedBy,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

function presetView(deps: ProfileStoreDeps, name: PresetName, usedBy: string[]): ProfileView {
  const p = deps.presets[name];
  return {
    name,
    description: p.description,
    rules: p.rules,
    builtin: true,
    revision: 0,
    usedBy,
    createdAt: null,
    createdBy: null,
    updatedAt: null,
    updatedBy: null,
  };
}

/** Agent ids by the profile they decide with (null → the default). */
async function usage(db: AppDb | Tx, name?: string): Promise<Map<string, string[]>> {
  const col = sql<string>`coalesce(${agents.riskProfile}, ${DEFAULT_PROFILE})`;
  const q = db.select({ id: agents.id, profile: col }).from(agents);
  const rows = await (name ? q.where(sql`${col} = ${name}`) : q).orderBy(asc(agents.id));
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.profile, [...(out.get(r.profile) ?? []), r.id]);
  return out;
}

export async function listProfiles(deps: ProfileStoreDeps): Promise<{ items: ProfileView[]; defaultProfile: string }> {
  const [rows, used] = await Promise.all([deps.db.select().from(riskProfiles).orderBy(asc(riskProfiles.name)), usage(deps.db)]);
  return {
    items: [...PRESETS.map((p) => presetView(deps, p, used.get(p) ?? [])), ...rows.map((r) => rowView(r, used.get(r.name) ?? []))],
    defaultProfile: DEFAULT_PROFILE,
  };
}

async function loadRow(db: AppDb | Tx, name: string): Promise<Row | null> {
  const [row] = await db.select().from(riskProfiles).where(eq(riskProfiles.name, name));
  return row ?? null;
}

export async function getProfile(deps: ProfileStoreDeps, name: string): Promise<ProfileView> {
  const used = (await usage(deps.db, name)).get(name) ?? [];
  if (isPreset(name)) return presetView(deps, name, used);
  const row = await loadRow(deps.db, name);
  if (!row) throw notFound(name);
  return rowView(row, used);
}

/** The rules a profile name decides with. */
export async function profileRules(deps: ProfileStoreDeps, name: string): Promise<ProfileRules> {
  if (isPreset(name)) return deps.presets[name].rules;
  const row = await loadRow(deps.db, name);
  if (!row) throw notFound(name);
  return rulesOf(row);
}

const auditForm = (r: Row) => ({ name: r.name, description: r.description, rules: r.rules, revision: r.revision });

export async function createProfile(
  deps: ProfileStoreDeps,
  actor: Actor,
  input: { name: string; description?: string; rules: ProfileRules },
): Promise<ProfileView> {
  if (isPreset(input.name))
    throw new AppError('exists', `"${input.name}" is the name of a built-in preset.`, { issues: [{ path: 'name', message: 'Choose another name.' }] });
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(riskProfiles)
      .values({ name: input.name, description: input.description ?? '', rules: input.rules, createdBy: actor.label, updatedBy: actor.label })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('exists', `A risk profile "${input.name}" already exists.`, { issues: [{ path: 'name', message: 'This name is taken.' }] });
    await recordAudit(tx, actor, { action: 'policy.profile.create', targetType: 'risk_profile', targetId: row.name, after: auditForm(row) });
    return rowView(row, []);
  });
}

export async function updateProfile(
  deps: ProfileStoreDeps,
  actor: Actor,
  name: string,
  input: { revision: number; description?: string; rules?: ProfileRules },
): Promise<ProfileView> {
  if (isPreset(name)) throw readOnly(name);
  return deps.db.transaction(async (tx) => {
    const row = await loadRow(tx, name);
    if (!row) throw notFound(name);
    const stale = () =>
      new AppError(
        'conflict',
        `Profile "${name}" was changed by someone else (revision ${row.revision}, this edit started from ${input.revision}); reload it and edit again.`,
        {
          details: { revision: row.revision, sent: input.revision },
        },
      );
    if (row.revision !== input.revision) throw stale();
    const [after] = await tx
      .update(riskProfiles)
      .set({
        description: input.description ?? row.description,
        rules: input.rules ?? row.rules,
        revision: row.revision + 1,
        updatedAt: new Date(),
        updatedBy: actor.label,
      })
      .where(sql`${riskProfiles.name} = ${name} and ${riskProfiles.revision} = ${input.revision}`)
      .returning();
    if (!after) throw stale();
    await recordAudit(tx, actor, {
      action: 'policy.profile.update',
      targetType: 'risk_profile',
      targetId: name,
      before: auditForm(row),
      after: auditForm(after),
    });
    return rowView(after, (await usage(tx, name)).get(name) ?? []);
  });
}

export async function deleteProfile(deps: ProfileStoreDeps, actor: Actor, name: string): Promise<{ deleted: true }> {
  if (isPreset(name)) throw readOnly(name);
  await deps.db.transaction(async (tx) => {
    const row = await loadRow(tx, name);
    if (!row) throw notFound(name);
    // Lock the agents naming it so none is bound to it between the check and the delete.
    const users = (await tx.select({ id: agents.id }).from(agents).where(eq(agents.riskProfile, name)).orderBy(asc(agents.id)).for('update')).map((r) => r.id);
    if (users.length)
      throw new AppError('conflict', `Profile "${name}" is used by ${users.length} agent${users.length === 1 ? '' : 's'}: ${users.join(', ')}.`, {
        details: { agents: users },
        hint: 'Move those agents to another profile first.',
      });
    await tx.delete(riskProfiles).where(eq(riskProfiles.name, name));
    await recordAudit(tx, actor, { action: 'policy.profile.delete', targetType: 'risk_profile', targetId: name, before: auditForm(row) });
  });
  return { deleted: true };
}

/** Overrides on top of a profile: each named field replaces the profile's, deny groups merge per group. */
export function applyOverrides(base: ProfileRules, over: PolicyOverrides | null | undefined): ProfileRules {
  if (!over) return base;
  const { denyGroups, ...rest } = over;
  return profileRulesSchema.parse({ ...base, ...rest, denyGroups: { ...base.denyGroups, ...(denyGroups ?? {}) } });
}

export interface AgentPolicy {
  agentId: string;
  profile: string;
  overrides: PolicyOverrides | null;
  rules: ProfileRules;
  sandboxConfigId: string | null;
}

export async function agentPolicy(deps: ProfileStoreDeps, agentId: string): Promise<AgentPolicy> {
  const [row] = await deps.db
    .select({ id: agents.id, riskProfile: agents.riskProfile, policyOverrides: agents.policyOverrides, sandboxConfigId: agents.sandboxConfigId })
    .from(agents)
    .where(eq(agents.id, agentId));
  if (!row) throw new AppError('not_found', `No agent "${agentId}" exists.`);
  const profile = row.riskProfile ?? DEFAULT_PROFILE;
  const overrides = (row.policyOverrides as PolicyOverrides | null) ?? null;
  return { agentId, profile, overrides, rules: applyOverrides(await profileRules(deps, profile), overrides), sandboxConfigId: row.sandboxConfigId };
}
