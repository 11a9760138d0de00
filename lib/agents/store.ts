// Agents and the instance defaults: create, read, edit, delete, each write audited with its
// before/after in the same transaction. Edits carry the revision they started from; the update
// matches on it, so of two edits from the same revision the second is refused (409), never applied
// over the first. Lists are stored folded (trimmed, duplicates dropped, first order kept); names
// no skill has are kept and answered as warnings.
import { and, asc, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { agentDefaults, agents, riskProfiles, sandboxConfigs } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { publishChange } from '../cluster/invalidation';
import { AppError } from '../core/errors';
import { PRESETS } from '../policy/types';
import { normalizeList } from './allowlist';
import type { CreateAgentInput, PatchAgentInput, PutDefaultsInput } from './schema';

export type AgentRow = typeof agents.$inferSelect;
type Tx = Parameters<Parameters<AppDb['transaction']>[0]>[0];

export interface AgentStoreDeps {
  db: AppDb;
  /** Names of the skills the catalog knows (for the unknown-name warnings). */
  knownSkills: () => Promise<ReadonlySet<string>>;
}

export interface DefaultsRecord {
  skills: string[] | null;
  budget: { maxSkills: number; maxChars: number } | null;
  revision: number;
  updatedAt: Date | null;
  updatedBy: string | null;
}

const DEFAULTS_ID = 'default';

export function warningsFor(lists: (readonly string[] | null)[], known: ReadonlySet<string>): string[] {
  const unknown = [...new Set(lists.flatMap((l) => l ?? []).filter((n) => !known.has(n)))].sort();
  return unknown.map((n) => `No skill named "${n}" is known; the name is kept and applies once such a skill appears.`);
}

export function agentView(row: AgentRow, known: ReadonlySet<string>) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sandboxConfigId: row.sandboxConfigId,
    skills: row.skills,
    inheritsDefaults: row.skills === null,
    denySkills: row.denySkills,
    budget: row.budget,
    riskProfile: row.riskProfile,
    policyOverrides: row.policyOverrides,
    revision: row.revision,
    warnings: warningsFor([row.skills, row.denySkills], known),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}
export type AgentView = ReturnType<typeof agentView>;

const auditForm = (r: AgentRow) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  sandboxConfigId: r.sandboxConfigId,
  skills: r.skills,
  denySkills: r.denySkills,
  budget: r.budget,
  riskProfile: r.riskProfile,
  policyOverrides: r.policyOverrides,
  revision: r.revision,
});

const fold = (l: readonly string[] | null | undefined) => (l === null || l === undefined ? l : normalizeList(l));

export const notFoundAgent = (id: string) =>
  new AppError('not_found', `No agent "${id}" exists; unknown agents get no skills (they do not fall back to the defaults).`);

const stale = (what: string, sent: number, current: number) =>
  new AppError('conflict', `${what} was changed by someone else (revision ${current}, this edit started from ${sent}); reload it and edit again.`, {
    details: { revision: current, sent },
  });

async function assertConfig(db: AppDb | Tx, id: string | null | undefined): Promise<void> {
  if (!id) return;
  const [row] = await db.select({ id: sandboxConfigs.id }).from(sandboxConfigs).where(eq(sandboxConfigs.id, id));
  if (!row)
    throw new AppError('validation', `No sandbox config "${id}" exists.`, {
      issues: [{ path: 'sandboxConfigId', message: 'This sandbox config was not found.' }],
    });
}

async function assertProfile(db: AppDb | Tx, name: string | null | undefined): Promise<void> {
  if (!name || (PRESETS as readonly string[]).includes(name)) return;
  const [row] = await db.select({ name: riskProfiles.name }).from(riskProfiles).where(eq(riskProfiles.name, name));
  if (!row)
    throw new AppError('validation', `No exec risk profile "${name}" exists.`, {
      issues: [{ path: 'riskProfile', message: 'This risk profile was not found.' }],
    });
}

export async function loadAgent(db: AppDb | Tx, id: string): Promise<AgentRow> {
  const [row] = await db.select().from(agents).where(eq(agents.id, id));
  if (!row) throw notFoundAgent(id);
  return row;
}

export async function listAgentRows(db: AppDb): Promise<AgentRow[]> {
  return db.select().from(agents).orderBy(asc(agents.id));
}

export async function listAgents(deps: AgentStoreDeps): Promise<{ items: AgentView[] }> {
  const [rows, known] = await Promise.all([listAgentRows(deps.db), deps.knownSkills()]);
  return { items: rows.map((r) => agentView(r, known)) };
}

export async function getAgent(deps: AgentStoreDeps, id: string): Promise<AgentView> {
  return agentView(await loadAgent(deps.db, id), await deps.knownSkills());
}

export async function createAgent(deps: AgentStoreDeps, actor: Actor, input: CreateAgentInput): Promise<AgentView> {
  await assertConfig(deps.db, input.sandboxConfigId);
  await assertProfile(deps.db, input.riskProfile);
  const known = await deps.knownSkills();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(agents)
      .values({
        id: input.id,
        name: input.name,
        description: input.description ?? '',
        sandboxConfigId: input.sandboxConfigId ?? null,
        skills: fold(input.skills) ?? null,
        denySkills: fold(input.denySkills) ?? [],
        budget: input.budget ?? null,
        riskProfile: input.riskProfile ?? null,
        policyOverrides: input.policyOverrides ?? null,
        createdBy: actor.label,
        updatedBy: actor.label,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new AppError('exists', `An agent "${input.id}" already exists.`, { issues: [{ path: 'id', message: 'This id is taken.' }] });
    await publishChange(tx, 'agents', row.id);
    await recordAudit(tx, actor, { action: 'agent.create', targetType: 'agent', targetId: row.id, after: auditForm(row) });
    return agentView(row, known);
  });
}

/** The fields of an agent an edit sets (absent ones are kept), as stored. */
export function patchedFields(row: AgentRow, p: Omit<PatchAgentInput, 'revision'>) {
  return {
    name: p.name ?? row.name,
    description: p.description ?? row.description,
    sandboxConfigId: p.sandboxConfigId === undefined ? row.sandboxConfigId : p.sandboxConfigId,
    skills: p.skills === undefined ? row.skills : fold(p.skills)!,
    denySkills: p.denySkills === undefined ? row.denySkills : fold(p.denySkills)!,
    budget: p.budget === undefined ? row.budget : p.budget,
    riskProfile: p.riskProfile === undefined ? row.riskProfile : p.riskProfile,
    policyOverrides: p.policyOverrides === undefined ? row.policyOverrides : p.policyOverrides,
  };
}

/** Writes an edit of `row` made from `revision`: 409 when the stored revision moved on. */
export async function writeAgent(tx: Tx, actor: Actor, row: AgentRow, revision: number, fields: ReturnType<typeof patchedFields>): Promise<AgentRow> {
  if (row.revision !== revision) throw stale(`Agent "${row.id}"`, revision, row.revision);
  const [after] = await tx
    .update(agents)
    .set({ ...fields, revision: row.revision + 1, updatedAt: new Date(), updatedBy: actor.label })
    .where(and(eq(agents.id, row.id), eq(agents.revision, revision)))
    .returning();
  if (!after) throw stale(`Agent "${row.id}"`, revision, (await loadAgent(tx, row.id)).revision);
  await publishChange(tx, 'agents', row.id);
  await recordAudit(tx, actor, { action: 'agent.update', targetType: 'agent', targetId: row.id, before: auditForm(row), after: auditForm(after) });
  return after;
}

export async function patchAgent(deps: AgentStoreDeps, actor: Actor, id: string, input: PatchAgentInput): Promise<AgentView> {
  const { revision, ...patch } = input;
  await assertConfig(deps.db, patch.sandboxConfigId);
  await assertProfile(deps.db, patch.riskProfile);
  const known = await deps.knownSkills();
  return deps.db.transaction(async (tx) => {
    const row = await loadAgent(tx, id);
    return agentView(await writeAgent(tx, actor, row, revision, patchedFields(row, patch)), known);
  });
}

export async function deleteAgent(deps: AgentStoreDeps, actor: Actor, id: string): Promise<{ deleted: true }> {
  await deps.db.transaction(async (tx) => {
    const row = await loadAgent(tx, id);
    await tx.delete(agents).where(eq(agents.id, id));
    await publishChange(tx, 'agents', id);
    await recordAudit(tx, actor, { action: 'agent.delete', targetType: 'agent', targetId: id, before: auditForm(row) });
  });
  return { deleted: true };
}

/** The agents bound to a sandbox config (what uses the config, for its in-use checks). */
export async function agentsOfConfig(db: AppDb, configId: string): Promise<{ id: string; name: string }[]> {
  return db.select({ id: agents.id, name: agents.name }).from(agents).where(eq(agents.sandboxConfigId, configId)).orderBy(asc(agents.id));
}

// ---------- defaults ----------

export async function loadDefaults(db: AppDb | Tx): Promise<DefaultsRecord> {
  const [row] = await db.select().from(agentDefaults).where(eq(agentDefaults.id, DEFAULTS_ID));
  if (!row) return { skills: null, budget: null, revision: 0, updatedAt: null, updatedBy: null };
  return { skills: row.skills, budget: row.budget, revision: row.revision, updatedAt: row.updatedAt, updatedBy: row.updatedBy };
}

export function defaultsView(d: DefaultsRecord, known: ReadonlySet<string>) {
  return {
    skills: d.skills,
    unrestricted: d.skills === null,
    budget: d.budget,
    revision: d.revision,
    warnings: warningsFor([d.skills], known),
    updatedAt: d.updatedAt?.toISOString() ?? null,
    updatedBy: d.updatedBy,
  };
}

export async function getDefaults(deps: AgentStoreDeps) {
  return defaultsView(await loadDefaults(deps.db), await deps.knownSkills());
}

export async function putDefaults(deps: AgentStoreDeps, actor: Actor, input: PutDefaultsInput) {
  const known = await deps.knownSkills();
  return deps.db.transaction(async (tx) => {
    const before = await loadDefaults(tx);
    if (before.revision !== input.revision) throw stale('The agent defaults', input.revision, before.revision);
    const values = {
      skills: fold(input.skills) ?? null,
      budget: input.budget === undefined ? before.budget : input.budget,
      revision: before.revision + 1,
      updatedAt: new Date(),
      updatedBy: actor.label,
    };
    const [row] =
      before.revision === 0
        ? await tx
            .insert(agentDefaults)
            .values({ id: DEFAULTS_ID, ...values })
            .onConflictDoNothing()
            .returning()
        : await tx
            .update(agentDefaults)
            .set(values)
            .where(and(eq(agentDefaults.id, DEFAULTS_ID), eq(agentDefaults.revision, before.revision)))
            .returning();
    if (!row) throw stale('The agent defaults', input.revision, (await loadDefaults(tx)).revision);
    await publishChange(tx, 'agents');
    const after = { skills: row.skills, budget: row.budget, revision: row.revision, updatedAt: row.updatedAt, updatedBy: row.updatedBy };
    await recordAudit(tx, actor, {
      action: 'agent.defaults.update',
      targetType: 'agent_defaults',
      targetId: DEFAULTS_ID,
      before: { skills: before.skills, budget: before.budget, revision: before.revision },
      after: { skills: after.skills, budget: after.budget, revision: after.revision },
    });
    return defaultsView(after, known);
  });
}
