// The names of an agent's own variables that reach its execs (values never leave the env store):
// read with the agent's probe for one agent, or in one statement for every agent of a listing.
import { and, asc, inArray, like } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxEnvVars } from '@/db/schema';
import type { AgentEnvNames } from '../installs/gating/image-gating';
import { agentEnvOwner } from '../sandbox/env/resolve';

type Row = readonly [level: string, skillKey: string, name: string];

function namesOf(agentId: string, rows: Iterable<Row>): AgentEnvNames | null {
  const sandbox: string[] = [];
  const perSkill = new Map<string, string[]>();
  for (const [level, skillKey, name] of rows) {
    if (level === 'personal_sandbox') sandbox.push(name);
    else if (level === 'personal_skill') perSkill.set(skillKey, [...(perSkill.get(skillKey) ?? []), name]);
  }
  return sandbox.length || perSkill.size ? { agentId, sandbox, perSkill } : null;
}

/** The probe's JSON (`[level, skillKey, name][]`, or null) as names by level. */
export function agentEnvFromProbe(agentId: string, json: string | null | undefined): AgentEnvNames | null {
  if (!json) return null;
  return namesOf(agentId, JSON.parse(json) as Row[]);
}

/** A key equal for agents whose own variables gate alike: '' for none. */
export const agentEnvKey = (a: AgentEnvNames | null): string =>
  a ? JSON.stringify([a.agentId, [...a.sandbox].sort(), [...a.perSkill].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))]) : '';

/**
 * Every agent's own variable names in one statement, then per agent the ones that reach its execs
 * in the config it is bound to (for listings that compute many agents).
 */
export async function loadAgentEnvNames(db: AppDb): Promise<(agentId: string, configId: string | null) => AgentEnvNames | null> {
  const rows = await db
    .select({
      userId: sandboxEnvVars.userId,
      level: sandboxEnvVars.level,
      configId: sandboxEnvVars.configId,
      skillKey: sandboxEnvVars.skillKey,
      name: sandboxEnvVars.name,
    })
    .from(sandboxEnvVars)
    .where(and(like(sandboxEnvVars.userId, 'agent:%'), inArray(sandboxEnvVars.level, ['personal_sandbox', 'personal_skill'])))
    .orderBy(asc(sandboxEnvVars.level), asc(sandboxEnvVars.skillKey), asc(sandboxEnvVars.name));
  const byOwner = new Map<string, typeof rows>();
  for (const r of rows) {
    const list = byOwner.get(r.userId);
    if (list) list.push(r);
    else byOwner.set(r.userId, [r]);
  }
  return (agentId, configId) => {
    if (!configId) return null;
    const mine = (byOwner.get(agentEnvOwner(agentId)) ?? []).filter((r) => r.level === 'personal_skill' || r.configId === configId);
    return namesOf(
      agentId,
      mine.map((r): Row => [r.level, r.skillKey, r.name]),
    );
  };
}
