/**
 * The allowlist matrix's unsaved edits: per changed agent, whether it has its own list and the names on it.
 * Pure (no React), so a bulk edit over 100 agents × 1,000 skills is a loop over sets. Names on a list
 * that no catalog skill has are kept as they are: the matrix cannot show them, so it never drops them.
 */

/** An agent as the matrix reads it (GET /api/v1/agents/allowlists/matrix). */
export interface MatrixAgent {
  id: string;
  revision: number;
  /** null: inherits the defaults. */
  skills: string[] | null;
}
export interface MatrixDefaults {
  skills: string[] | null;
  unrestricted: boolean;
}

export interface RowState {
  own: boolean;
  /** The own list (kept while the agent inherits, so switching back restores it). */
  skills: ReadonlySet<string>;
}
export type Draft = ReadonlyMap<string, RowState>;
type Defaults = MatrixDefaults;

export const baseRow = (a: MatrixAgent): RowState => ({ own: a.skills !== null, skills: new Set(a.skills ?? []) });

export const rowOf = (draft: Draft, a: MatrixAgent): RowState => draft.get(a.id) ?? baseRow(a);

/** Whether the agent's list allows the name (its own list, or the defaults it inherits); deny lists are not part of the matrix. */
export function allows(row: RowState, defaults: Defaults, name: string): boolean {
  if (row.own) return row.skills.has(name);
  return defaults.unrestricted || !!defaults.skills?.includes(name);
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));

export function isChanged(a: MatrixAgent, row: RowState): boolean {
  const base = baseRow(a);
  if (base.own !== row.own) return true;
  return row.own && !sameSet(base.skills, row.skills);
}

function put(draft: Draft, a: MatrixAgent, row: RowState): Draft {
  const next = new Map(draft);
  if (isChanged(a, row)) next.set(a.id, row);
  else next.delete(a.id);
  return next;
}

/** Gives an agent its own list (seeded with what it inherits now, so nothing changes until a box is ticked), or returns it to the defaults. */
export function setOwn(draft: Draft, a: MatrixAgent, defaults: Defaults, catalog: readonly string[], own: boolean): Draft {
  const row = rowOf(draft, a);
  if (row.own === own) return draft;
  if (!own) return put(draft, a, { own: false, skills: row.skills });
  const seed = a.skills !== null ? row.skills : new Set(defaults.unrestricted ? catalog : (defaults.skills ?? []));
  return put(draft, a, { own: true, skills: seed });
}

/** Ticks or unticks names for agents with their own list; agents that inherit are left alone. Returns the draft and how many agents were skipped. */
export function setCells(draft: Draft, agents: readonly MatrixAgent[], names: readonly string[], value: boolean): { draft: Draft; skipped: number } {
  let next = draft;
  let skipped = 0;
  for (const a of agents) {
    const row = rowOf(next, a);
    if (!row.own) {
      skipped++;
      continue;
    }
    const skills = new Set(row.skills);
    for (const n of names) value ? skills.add(n) : skills.delete(n);
    next = put(next, a, { own: true, skills });
  }
  return { draft: next, skipped };
}

/** The batch the preview and the save take: one change per changed agent, from the revision the matrix read. */
export function changesOf(draft: Draft, agents: readonly MatrixAgent[]) {
  const out: { agentId: string; revision: number; skills: string[] | null }[] = [];
  for (const a of agents) {
    const row = draft.get(a.id);
    if (row) out.push({ agentId: a.id, revision: a.revision, skills: row.own ? [...row.skills] : null });
  }
  return out;
}
