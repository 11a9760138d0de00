// What Skilldock reads of an OpenClaw config: the agents and their allowlists, the skill entries,
// where skills load from. Tolerant of what it does not know (every other key is left alone), strict
// about the shapes it reads: a value of the wrong type is reported, never guessed.
import path from 'node:path';

export type SecretRef = { source: string; provider: string; id: string };
export type ApiKeyValue = { kind: 'plain'; value: string } | { kind: 'ref'; ref: SecretRef };

export interface OpenClawEntry {
  enabled: boolean | null;
  env: Record<string, string>;
  apiKey: ApiKeyValue | null;
}

export interface OpenClawAgent {
  id: string;
  /** null: inherits agents.defaults.skills. */
  skills: string[] | null;
  workspace: string;
  /** Read from the legacy `agents.list[]` (OpenClaw migrates it to `agents.entries`). */
  legacy: boolean;
}

export interface OpenClawModel {
  /** null: unrestricted. */
  defaultsSkills: string[] | null;
  agents: OpenClawAgent[];
  entries: Record<string, OpenClawEntry>;
  load: { extraDirs: string[]; allowSymlinkTargets: string[]; watch: boolean };
  allowBundled: string[] | null;
  limits: Record<string, unknown>;
  /** Shapes Skilldock could not read (path: what was found); the keys stay untouched. */
  problems: string[];
}

/** One folder skills load from, highest precedence first. */
export interface OpenClawSkillRoot {
  kind: 'workspace' | 'project' | 'personal' | 'managed' | 'bundled' | 'extra';
  path: string;
  agentId?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(v: unknown, where: string, problems: string[]): string[] | null {
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) {
    problems.push(`${where}: expected a list of names`);
    return null;
  }
  return [...new Set(v as string[])];
}

function readEntry(v: unknown, where: string, problems: string[]): OpenClawEntry {
  const e: OpenClawEntry = { enabled: null, env: {}, apiKey: null };
  if (!isObj(v)) {
    problems.push(`${where}: expected an object`);
    return e;
  }
  if (typeof v.enabled === 'boolean') e.enabled = v.enabled;
  if (isObj(v.env)) for (const [k, val] of Object.entries(v.env)) if (typeof val === 'string') e.env[k] = val;
  if (typeof v.apiKey === 'string') e.apiKey = { kind: 'plain', value: v.apiKey };
  else if (isObj(v.apiKey) && typeof v.apiKey.source === 'string' && typeof v.apiKey.id === 'string')
    e.apiKey = {
      kind: 'ref',
      ref: { source: v.apiKey.source, provider: typeof v.apiKey.provider === 'string' ? v.apiKey.provider : 'default', id: v.apiKey.id },
    };
  return e;
}

const expandHome = (p: string, home: string) => (p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p);

/** Reads the parts of an OpenClaw config Skilldock manages. */
export function readOpenClawModel(config: Record<string, unknown>, ctx: { stateDir: string; home: string }): OpenClawModel {
  const problems: string[] = [];
  const agents = isObj(config.agents) ? config.agents : {};
  const defaults = isObj(agents.defaults) ? agents.defaults : {};
  const defaultWorkspace = typeof defaults.workspace === 'string' ? defaults.workspace : null;
  const workspaceOf = (id: string, own: unknown) =>
    expandHome(typeof own === 'string' ? own : defaultWorkspace && id === 'main' ? defaultWorkspace : path.join(ctx.stateDir, `workspace-${id}`), ctx.home);
  const out: OpenClawAgent[] = [];
  const seen = new Set<string>();
  if (isObj(agents.entries))
    for (const [id, a] of Object.entries(agents.entries)) {
      const row = isObj(a) ? a : {};
      seen.add(id);
      out.push({ id, skills: stringList(row.skills, `agents.entries.${id}.skills`, problems), workspace: workspaceOf(id, row.workspace), legacy: false });
    }
  if (Array.isArray(agents.list))
    for (const [i, a] of agents.list.entries()) {
      if (!isObj(a) || typeof a.id !== 'string') {
        problems.push(`agents.list[${i}]: expected an object with an id`);
        continue;
      }
      if (seen.has(a.id)) continue;
      seen.add(a.id);
      out.push({ id: a.id, skills: stringList(a.skills, `agents.list[${i}].skills`, problems), workspace: workspaceOf(a.id, a.workspace), legacy: true });
    }
  const skills = isObj(config.skills) ? config.skills : {};
  const load = isObj(skills.load) ? skills.load : {};
  const entries: Record<string, OpenClawEntry> = {};
  if (isObj(skills.entries)) for (const [k, v] of Object.entries(skills.entries)) entries[k] = readEntry(v, `skills.entries.${k}`, problems);
  return {
    defaultsSkills: stringList(defaults.skills, 'agents.defaults.skills', problems),
    agents: out.sort((a, b) => (a.id < b.id ? -1 : 1)),
    entries,
    load: {
      extraDirs: (stringList(load.extraDirs, 'skills.load.extraDirs', problems) ?? []).map((p) => expandHome(p, ctx.home)),
      allowSymlinkTargets: (stringList(load.allowSymlinkTargets, 'skills.load.allowSymlinkTargets', problems) ?? []).map((p) => expandHome(p, ctx.home)),
      watch: load.watch !== false,
    },
    allowBundled: stringList(skills.allowBundled, 'skills.allowBundled', problems),
    limits: isObj(skills.limits) ? skills.limits : {},
    problems,
  };
}

/** The folders this gateway loads skills from, in OpenClaw's precedence (highest first). */
export function openClawSkillRoots(m: OpenClawModel, ctx: { stateDir: string; home: string; bundledDir: string | null }): OpenClawSkillRoot[] {
  const roots: OpenClawSkillRoot[] = [];
  for (const a of m.agents) {
    roots.push({ kind: 'workspace', path: path.join(a.workspace, 'skills'), agentId: a.id });
    roots.push({ kind: 'project', path: path.join(a.workspace, '.agents', 'skills'), agentId: a.id });
  }
  roots.push({ kind: 'personal', path: path.join(ctx.home, '.agents', 'skills') });
  roots.push({ kind: 'managed', path: path.join(ctx.stateDir, 'skills') });
  if (ctx.bundledDir) roots.push({ kind: 'bundled', path: ctx.bundledDir });
  for (const d of m.load.extraDirs) roots.push({ kind: 'extra', path: d });
  return roots;
}
