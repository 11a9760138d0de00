// What Skilldock wants a gateway to hold: the defaults and the linked agents' allowlists, the skill
// entries with their values, and the managed catalog skills (never one the scanner blocked). Read in
// one pass; `keyOf` is a cheap fingerprint of the same inputs, so a watcher can tell when to sync.
import { createHash } from 'node:crypto';
import { count, inArray, max } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { agentDefaults, agents, skillEntries } from '@/db/schema';
import type { SecretBox } from '../secrets/crypto';
import type { CatalogSkill } from '../skills/service/build';
import type { CatalogSnapshot } from '../skills/service/catalog';
import { openEntries } from '../skills/service/entries';

export interface DesiredAgent {
  id: string;
  /** null: inherits the defaults. */
  skills: string[] | null;
  exists: boolean;
}

export interface DesiredEntry {
  enabled: boolean | null;
  env: Record<string, string>;
  apiKey: string | null;
}

export interface Desired {
  defaults: string[] | null;
  agents: DesiredAgent[];
  entries: Map<string, DesiredEntry>;
  /** Managed catalog skills any linked agent may see, by name; blocked ones are left out. */
  skills: Map<string, CatalogSkill>;
  /** Managed skills left out because the scanner blocked them. */
  blocked: string[];
  /** Managed skills no linked agent may use (not written; a folder of one is pruned). */
  hidden?: string[];
}

export interface DesiredDeps {
  db: AppDb;
  box: SecretBox;
  snapshot: () => Promise<CatalogSnapshot>;
}

const sorted = (l: readonly string[]) => [...new Set(l)].sort();

/** An agent's list as OpenClaw knows lists: its own (or the defaults) minus what it denies. */
function listOf(own: string[] | null, deny: string[], defaults: string[] | null, catalog: readonly string[]): string[] | null {
  if (!deny.length) return own === null ? null : sorted(own);
  const base = own ?? defaults ?? catalog;
  const denied = new Set(deny);
  return sorted(base.filter((n) => !denied.has(n)));
}

export async function desiredState(deps: DesiredDeps, agentIds: readonly string[]): Promise<Desired> {
  const [snapshot, [defRow], rows, entries] = await Promise.all([
    deps.snapshot(),
    deps.db.select().from(agentDefaults),
    agentIds.length
      ? deps.db
          .select()
          .from(agents)
          .where(inArray(agents.id, [...agentIds]))
      : Promise.resolve([]),
    openEntries(deps.db, deps.box),
  ]);
  const defaults = defRow?.skills ? sorted(defRow.skills) : null;
  const catalogNames = sorted(snapshot.skills.map((s) => s.name));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const desiredAgents: DesiredAgent[] = [...agentIds].sort().map((id) => {
    const r = byId.get(id);
    return r ? { id, skills: listOf(r.skills, r.denySkills, defaults, catalogNames), exists: true } : { id, skills: null, exists: false };
  });
  const visible = new Set<string>();
  let all = false;
  for (const a of desiredAgents) {
    if (!a.exists) continue;
    const list = a.skills ?? defaults;
    if (list === null) all = true;
    else for (const n of list) visible.add(n);
  }
  const skills = new Map<string, CatalogSkill>();
  const blocked: string[] = [];
  const hidden: string[] = [];
  for (const s of snapshot.skills) {
    if (s.copy.source !== 'managed') continue;
    if (!(all || visible.has(s.name))) {
      hidden.push(s.name);
      continue;
    }
    if (s.status === 'blocked') blocked.push(s.name);
    else skills.set(s.name, s);
  }
  return { defaults, agents: desiredAgents, entries, skills, blocked: blocked.sort(), hidden: hidden.sort() };
}

/** A fingerprint of everything desiredState reads: equal keys, nothing to sync. */
export async function desiredKey(deps: Pick<DesiredDeps, 'db' | 'snapshot'>, agentIds: readonly string[]): Promise<string> {
  const [snapshot, defs, rows, [e]] = await Promise.all([
    deps.snapshot(),
    deps.db.select({ skills: agentDefaults.skills, updatedAt: agentDefaults.updatedAt }).from(agentDefaults),
    agentIds.length
      ? deps.db
          .select({ id: agents.id, revision: agents.revision, skills: agents.skills, deny: agents.denySkills })
          .from(agents)
          .where(inArray(agents.id, [...agentIds]))
      : Promise.resolve([]),
    deps.db.select({ at: max(skillEntries.updatedAt), n: count() }).from(skillEntries),
  ]);
  const h = createHash('sha256');
  h.update(JSON.stringify([snapshot.version, snapshot.builtAt.getTime(), defs, rows.sort((a, b) => (a.id < b.id ? -1 : 1)), e ?? null, agentIds]));
  return h.digest('hex').slice(0, 32);
}
