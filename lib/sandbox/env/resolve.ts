import { type EnvLevel, envNameProblem } from './rules';

/** One stored var, opened: the resolver is pure and never reads the database. */
export interface EnvEntry {
  level: EnvLevel;
  configId?: string;
  userId?: string;
  skillKey?: string;
  name: string;
  value: string;
}

/**
 * Whose personal variables the personal levels hold: a person by their user id, an agent by
 * `agent:<id>` (user ids never contain a colon, so the two cannot meet).
 */
export const agentEnvOwner = (agentId: string) => `agent:${agentId}`;

export interface EnvRequest {
  /** The person or agent the exec runs for (its env owner id); null: no personal variables. */
  principal: { id: string } | null;
  sandboxConfig: { id: string };
  /** The skill being run, with the env names it declares; personal skill vars are limited to those. */
  skill?: { key: string; declaredEnv?: readonly string[] } | null;
}

export interface ResolvedEnv {
  env: Record<string, string>;
  /** The level each name's value came from. */
  sources: Record<string, EnvLevel>;
}

/** Lowest first: each later level overrides the names it sets. */
const ORDER: EnvLevel[] = ['config', 'workspace_skill', 'personal_sandbox', 'personal_skill'];

function applies(e: EnvEntry, req: EnvRequest): boolean {
  switch (e.level) {
    case 'config':
      return e.configId === req.sandboxConfig.id;
    case 'workspace_skill':
      return !!req.skill && e.skillKey === req.skill.key;
    case 'personal_sandbox':
      return !!req.principal && e.userId === req.principal.id && e.configId === req.sandboxConfig.id;
    case 'personal_skill':
      return (
        !!req.principal &&
        !!req.skill &&
        e.userId === req.principal.id &&
        e.skillKey === req.skill.key &&
        (req.skill.declaredEnv === undefined || req.skill.declaredEnv.includes(e.name))
      );
  }
}

/**
 * The env of one exec: config < workspace skill < personal sandbox < personal skill. Reserved names
 * are dropped even if a row holds one (written before a rule was added), so they never reach a sandbox.
 */
export function envFor(req: EnvRequest, entries: readonly EnvEntry[]): ResolvedEnv {
  const env: Record<string, string> = {};
  const sources: Record<string, EnvLevel> = {};
  for (const level of ORDER) {
    for (const e of entries) {
      if (e.level !== level || !applies(e, req) || envNameProblem(e.name)) continue;
      env[e.name] = e.value;
      sources[e.name] = level;
    }
  }
  return { env, sources };
}
