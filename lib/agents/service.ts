// What the gateway and the console read of an agent: its effective skills and prompt with their
// version, one skill's SKILL.md and file list, one file, and the explain traces. A skill outside
// the effective list answers exactly like a skill that does not exist (one message, 404), so no
// path tells an agent what its list keeps from it.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { AppDb } from '@/db/client';
import { AppError } from '../core/errors';
import type { AgentEnvNames, GateInConfigDeps } from '../installs/gating/image-gating';
import { readContainedFile } from '../skills/contained-read';
import { listSkillFiles } from '../skills/files';
import type { CatalogSnapshot } from '../skills/service/catalog';
import { managedStore } from '../skills/service/roots';
import { validateSlug, validateVersion, versionDir } from '../skills/store/manifest';
import type { SkillFile } from '../skills/types';
import { agentEnvFromProbe, agentEnvKey, loadAgentEnvNames } from './agent-env';
import type { AgentInputs, DefaultsInputs, Effective, SkillTrace } from './effective';
import type { EffectiveCache } from './effective-cache';
import { AgentVersionWatcher } from './events-watcher';
import type { AgentsMemo } from './memo';
import type { AgentProbeCache } from './probe-cache';
import { type AgentPolicyView, policyStep, type SkillPolicyCache } from './skill-policy';
import { type AgentRow, type DefaultsRecord, loadAgent, loadDefaults } from './store';
import { type AgentTarget, targetLoader } from './target';

export interface AgentsDeps {
  db: AppDb;
  /** Where the managed skill store is: a sandbox serving an older version than the catalog's is read from there. */
  dataDir: string;
  snapshot: () => Promise<CatalogSnapshot>;
  gate: GateInConfigDeps;
  home: string | null;
  /** What this service keeps between calls (one per composition root). */
  memo: AgentsMemo;
  /** Host agents' probes kept for a moment, dropped by every change of an agent or the defaults on any replica. */
  probes?: AgentProbeCache;
  /** The agent's exec policy: explain traces then warn about documented commands it would refuse. */
  policy?: {
    engine: () => Promise<Parameters<SkillPolicyCache['check']>[0]>;
    agent: (id: string) => Promise<AgentPolicyView>;
  };
}

export const MAX_FILE = 2 * 1024 * 1024;

export const agentInputs = (r: Pick<AgentRow, 'id' | 'skills' | 'denySkills' | 'budget'>): AgentInputs => ({
  id: r.id,
  skills: r.skills,
  denySkills: r.denySkills,
  budget: r.budget,
});
export const defaultsInputs = (d: DefaultsRecord): DefaultsInputs => ({ skills: d.skills, budget: d.budget });

/**
 * A kept sandbox target is loaded again after this long even when no row it comes from changed:
 * what the engine holds (the image a tag names, its probe) has no row to watch.
 */
export const SANDBOX_TARGET_TTL_MS = 5000;
const MAX_SANDBOXES = 256;
const MAX_INPUTS = 10_000;

/** The effective cache of this service (stats, tests). */
export const effectiveCacheOf = (deps: AgentsDeps): EffectiveCache => deps.memo.effective;

/** The version watcher of this service, made at its first stream. */
export const agentWatcher = (deps: AgentsDeps): AgentVersionWatcher =>
  (deps.memo.watcher ??= new AgentVersionWatcher(async (id) => (await effectiveOf(deps, id)).version));

const targetDeps = (deps: AgentsDeps) => ({ db: deps.db, gate: deps.gate, home: deps.home, dataDir: deps.dataDir });

/** The agent's target: the host, or its sandbox config's target, kept while the rows it comes from hold and the snapshot is the same. */
async function targetOf(
  deps: AgentsDeps,
  snapshot: CatalogSnapshot,
  configId: string | null,
  digest: string | null,
  agentEnv: AgentEnvNames | null = null,
): Promise<AgentTarget> {
  const memo = deps.memo;
  if (!configId) return memo.effective.canonicalTarget({ kind: 'host', label: snapshot.target.label, home: deps.home });
  const key = `${snapshot.version}|${snapshot.builtAt.getTime()}|${digest}`;
  // Agents with their own variables gate differently in the same config: each such set is a target of its own.
  const slot = `${configId}|${agentEnvKey(agentEnv)}`;
  const kept = memo.sandboxes.get(slot);
  if (kept && kept.key === key && Date.now() - kept.at < SANDBOX_TARGET_TTL_MS) return kept.target;
  const target = targetLoader(targetDeps(deps), snapshot)(configId, agentEnv).then((t) => memo.effective.canonicalTarget(t));
  memo.sandboxes.delete(slot);
  memo.sandboxes.set(slot, { key, at: Date.now(), target });
  if (memo.sandboxes.size > MAX_SANDBOXES) memo.sandboxes.delete(memo.sandboxes.keys().next().value as string);
  target.catch(() => {
    if (memo.sandboxes.get(slot)?.target === target) memo.sandboxes.delete(slot);
  });
  return target;
}

/** A context for computing many agents against one snapshot: each sandbox config is loaded once. */
export async function effectiveContext(deps: AgentsDeps) {
  const [snapshot, defaults] = await Promise.all([deps.snapshot(), loadDefaults(deps.db)]);
  const memo = deps.memo;
  const load = targetLoader(targetDeps(deps), snapshot);
  const target = async (id: string | null, agentEnv: AgentEnvNames | null) =>
    id ? memo.effective.canonicalTarget(await load(id, agentEnv)) : targetOf(deps, snapshot, null, null);
  // Read at the first agent bound to a config, once for every agent of the computation.
  let ownEnv: ReturnType<typeof loadAgentEnvNames> | null = null;
  return {
    snapshot,
    defaults,
    async of(row: Pick<AgentRow, 'id' | 'skills' | 'denySkills' | 'budget' | 'sandboxConfigId'>, d: DefaultsInputs = defaultsInputs(defaults)) {
      if (row.sandboxConfigId && !ownEnv) ownEnv = loadAgentEnvNames(deps.db);
      const env = row.sandboxConfigId && ownEnv ? (await ownEnv)(row.id, row.sandboxConfigId) : null;
      return memo.effective.effective(snapshot, d, agentInputs(row), await target(row.sandboxConfigId, env));
    },
  };
}

/**
 * One agent's effective skills: one statement reads the stamps of the agent, the defaults and the
 * digest of its target's rows; while they and the catalog snapshot hold, the kept answer is returned
 * as it is. A stamp that moved reads the rows again.
 */
export async function effectiveOf(deps: AgentsDeps, id: string): Promise<Effective> {
  const memo = deps.memo;
  let kept = memo.inputs.get(id);
  const read = () => memo.probes.probe(id, !!kept?.sandboxConfigId);
  const [probe, snapshot] = await Promise.all([deps.probes && !kept?.sandboxConfigId ? deps.probes.get(id, read) : read(), deps.snapshot()]);
  let configId = probe.sandboxConfigId;
  let digest = probe.targetDigest;
  if (!kept || kept.agentStamp !== probe.agentStamp || kept.defaultsStamp !== probe.defaultsStamp) {
    const [row, defaults] = await Promise.all([loadAgent(deps.db, id), loadDefaults(deps.db)]);
    // Rows written after the probe are kept under its (older) stamps: the next probe reads them again.
    kept = {
      agentStamp: probe.agentStamp,
      defaultsStamp: probe.defaultsStamp,
      sandboxConfigId: row.sandboxConfigId,
      agent: agentInputs(row),
      defaults: defaultsInputs(defaults),
    };
    memo.inputs.delete(id);
    memo.inputs.set(id, kept);
    if (memo.inputs.size > MAX_INPUTS) memo.inputs.delete(memo.inputs.keys().next().value as string);
    if (row.sandboxConfigId !== configId) [configId, digest] = [row.sandboxConfigId, null];
  }
  const target = await targetOf(deps, snapshot, configId, digest, configId ? agentEnvFromProbe(id, probe.agentEnv) : null);
  return memo.effective.effective(snapshot, kept.defaults, kept.agent, target);
}

/** The content hash of the files an agent is served for a skill: the catalog copy's, or the stored version's a sandbox still serves. */
export function servedHash(e: Effective, name: string): string | undefined {
  const s = e.copies.get(name);
  if (!s) return undefined;
  return s.served && s.served.contentHash !== s.skill.copy.contentHash ? s.served.contentHash : s.skill.copy.contentHash;
}

/** The agent's skills and commands once each, as an exec names them: folder, key and declared env names. */
export function agentSkillRefs(e: Effective): { name: string; dir: string; key: string; env: string[] }[] {
  const refs = new Map<string, { name: string; dir: string; key: string; env: string[] }>();
  for (const s of [...e.skills, ...e.commands])
    if (!refs.has(s.name)) refs.set(s.name, { name: s.name, dir: s.skillDir, key: e.copies.get(s.name)?.skill.skillKey ?? s.name, env: s.env });
  return [...refs.values()];
}

export function gatewayView(e: Effective) {
  const p = e.prompt;
  return {
    agentId: e.agentId,
    version: e.version,
    target: e.target,
    skills: e.skills.map((s) => ({ ...s, contentHash: servedHash(e, s.name) })),
    commands: e.commands.map((s) => ({ ...s, contentHash: servedHash(e, s.name) })),
    prompt: { text: p.text, chars: p.chars, tokens: p.tokens, form: p.form, truncated: p.truncated, included: p.included, cut: p.cut },
  };
}

/** The gateway's JSON of an answer, serialised once per answer. */
export function gatewayJson(deps: AgentsDeps, e: Effective): string {
  const bodies = deps.memo.bodies;
  let body = bodies.get(e);
  if (body === undefined) bodies.set(e, (body = JSON.stringify(gatewayView(e))));
  return body;
}

/** The ETag of a version, and whether an If-None-Match header names it. */
export const etagOf = (version: string) => `"${version}"`;
export function matchesEtag(header: string | null, version: string): boolean {
  if (!header) return false;
  const tag = etagOf(version);
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === tag || t === '*');
}

/** The folder and files of what the agent gets: the catalog's copy, or the stored version a sandbox still serves. */
export async function servedSkill(deps: AgentsDeps, e: Effective, name: string): Promise<{ dir: string; files: SkillFile[] }> {
  const s = e.copies.get(name);
  if (!s) throw new AppError('not_found', `No skill "${name}" is available to agent "${e.agentId}".`);
  const { skill, served } = s;
  if (!served || served.contentHash === skill.copy.contentHash) return { dir: skill.copy.dir, files: skill.copy.files };
  const dir = versionDir(path.resolve(managedStore(deps.dataDir).storeDir), validateSlug(skill.skillKey), validateVersion(served.version));
  return { dir, files: await listSkillFiles(dir, { maxFiles: 5000 }) };
}

export async function gatewaySkill(deps: AgentsDeps, id: string, name: string) {
  const e = await effectiveOf(deps, id);
  const s = await servedSkill(deps, e, name);
  // Served skills are in the catalog or commands (servedSkill answered 404 for any other name).
  const out = e.skills.find((x) => x.name === name) ?? e.commands.find((x) => x.name === name)!;
  const text = (await readContainedFile(s.dir, 'SKILL.md', MAX_FILE)).toString('utf8');
  return {
    agentId: e.agentId,
    version: e.version,
    name,
    location: out.location,
    skillDir: out.skillDir,
    skillMd: text,
    files: s.files.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256, mode: f.mode & 0o777 })),
  };
}

export async function gatewayFile(deps: AgentsDeps, id: string, name: string, rel: string) {
  const e = await effectiveOf(deps, id);
  const s = await servedSkill(deps, e, name);
  const f = s.files.find((x) => x.path === rel);
  if (!f) throw new AppError('not_found', `${rel} is not a file of skill "${name}".`);
  if (f.size > MAX_FILE) throw new AppError('payload_too_large', `${rel} is ${f.size} bytes; files up to 2 MiB are served.`);
  const buf = await readContainedFile(s.dir, f.path, MAX_FILE);
  const binary = buf.subarray(0, 8192).includes(0);
  return {
    path: rel,
    size: buf.length,
    sha256: createHash('sha256').update(buf).digest('hex'),
    binary,
    content: binary ? null : buf.toString('utf8'),
    contentBase64: binary ? buf.toString('base64') : null,
  };
}

/** The traces with the exec-policy step added to every skill the list does not exclude (copies: the kept traces stay as they are). */
async function withPolicySteps(deps: AgentsDeps, policy: NonNullable<AgentsDeps['policy']>, e: Effective, traces: SkillTrace[]): Promise<SkillTrace[]> {
  const [view, engine, snapshot] = await Promise.all([policy.agent(e.agentId), policy.engine(), deps.snapshot()]);
  const byName = new Map(snapshot.skills.map((s) => [s.name, s]));
  const dirs = new Map([...e.skills, ...e.commands].map((s) => [s.name, s.skillDir]));
  return traces.map((t) => {
    const s = byName.get(t.name);
    if (t.excluded || !s) return t;
    const r = deps.memo.skillPolicy.check(engine, s, view.rules, dirs.get(t.name) ?? s.copy.dir);
    return { ...t, steps: [...t.steps, policyStep(r, view.profile)] };
  });
}

export async function explainAgent(deps: AgentsDeps, id: string, skill?: string) {
  const e = await effectiveOf(deps, id);
  let traces = skill ? e.traces.filter((t) => t.name === skill) : e.traces;
  if (skill && !traces.length)
    throw new AppError('not_found', `No skill "${skill}" is in the catalog; an allowlist naming it is kept and warned about until one appears.`);
  if (deps.policy) traces = await withPolicySteps(deps, deps.policy, e, traces);
  return {
    agentId: e.agentId,
    version: e.version,
    target: e.target,
    budget: e.budget,
    effective: e.skills.map((s) => s.name),
    prompt: {
      chars: e.prompt.chars,
      tokens: e.prompt.tokens,
      form: e.prompt.form,
      truncated: e.prompt.truncated,
      included: e.prompt.included,
      cut: e.prompt.cut,
    },
    traces,
  };
}
