// What one skill is on one target, whatever the agent: its copies, the trace steps that do not
// depend on the agent's list (found, copy, usable, eligible, installed, enabled, model-invocable),
// what the agent would be told of it, its prompt blocks (escaped once) and its digest. An agent's
// effective set is these evaluations filtered by its list and cut by its budget.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ServedVersion } from '@/db/schema/installs';
import { agentDescription } from '../skills/manifest';
import type { CatalogSkill } from '../skills/service/catalog';
import type { GateStep, SkillManifest } from '../skills/types';
import { type PromptBlock, promptBlock } from './prompt';
import { type AgentTarget, type SandboxTarget, sandboxSkillDir, servedInstall } from './target';

export type TraceStepName = 'found' | 'copy' | 'usable' | 'eligible' | 'installed' | 'allowed' | 'enabled' | 'model-invocable' | 'prompt' | 'policy';

export interface TraceStep {
  step: TraceStepName;
  pass: boolean;
  skipped?: boolean;
  /** Passes, but something of the skill will not work (e.g. commands the exec policy refuses). */
  warning?: boolean;
  detail: string;
}

export interface EffectiveSkill {
  name: string;
  description: string;
  /** SKILL.md on the target. */
  location: string;
  skillDir: string;
  /** Env names the skill needs (values never leave the env stores). */
  env: string[];
}

/**
 * A skill a user may run as a slash command (`user-invocable`, the default), with how the gateway
 * dispatches it. A skill with `disable-model-invocation: true` is served here alone: out of the
 * prompt catalog, still runnable by a user.
 */
export interface SkillCommand extends EffectiveSkill {
  /** False for `disable-model-invocation: true`: the prompt catalog leaves it out. */
  modelInvocable: boolean;
  userInvocable: true;
  /** "tool": the command bypasses the model and calls `commandTool` directly. */
  commandDispatch: 'tool' | null;
  commandTool: string | null;
  /** How the argument text reaches the tool ("raw": as typed). */
  commandArgMode: 'raw';
}

export interface SkillEval {
  skill: CatalogSkill;
  copies: { source: string; root: string; dir: string; won: boolean }[];
  /** The steps before `allowed` (found … installed) and after it (enabled, model-invocable). */
  before: TraceStep[];
  after: TraceStep[];
  /** Every step of both passes: the skill is effective (in the prompt catalog) for an agent whose list allows it. */
  passes: boolean;
  /** Every step but model-invocable passes and users may invoke it: its command, else null. */
  command: SkillCommand | null;
  /** In the answer at all: in the catalog (passes) or as a command. */
  listed: boolean;
  out: EffectiveSkill;
  block: PromptBlock;
  /** The content an agent is served: the catalog's copy, or the version a sandbox serves. */
  hash: string;
  served: ServedVersion | null;
  /** A digest of what the agent is told of it (out and hash). */
  digest: string;
}

export const step = (s: TraceStepName, pass: boolean, detail: string, skipped = false): TraceStep => ({
  step: s,
  pass,
  detail,
  ...(skipped ? { skipped } : {}),
});
const failing = (trace: GateStep[]) => trace.filter((t) => !t.pass && t.step !== 'enabled').map((t) => `${t.step}: ${t.detail}`);
const envOf = (m: SkillManifest) => [...new Set(m.primaryEnv ? [...m.requires.env, m.primaryEnv] : m.requires.env)].sort();

function usable(s: CatalogSkill): TraceStep {
  if (s.status === 'invalid') {
    const errors = s.copy.parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
    return step('usable', false, `SKILL.md is not valid: ${errors.join('; ') || 'see the skill page'}`);
  }
  if (s.status === 'blocked') return step('usable', false, `the scanner's verdict is ${s.scan.verdict} and no one acknowledged it: blocked`);
  return step('usable', true, `valid; scanner verdict ${s.scan.verdict}${s.ack ? ' (acknowledged)' : ''}`);
}

interface TargetSteps {
  eligible: TraceStep;
  installed: TraceStep;
  enabled: TraceStep;
  location: string;
  skillDir: string;
}

function hostSteps(s: CatalogSkill, label: string): TargetSteps {
  const bad = failing(s.gating.trace);
  const enabledStep = s.gating.trace.find((x) => x.step === 'enabled');
  return {
    eligible: step('eligible', !bad.length, bad.length ? `not eligible on ${label}: ${bad.join('; ')}` : `eligible on ${label}`),
    installed: step('installed', true, 'runs on the host: nothing to install', true),
    enabled: step('enabled', !s.gating.disabled, enabledStep?.detail ?? 'not disabled in config'),
    location: path.join(s.copy.dir, 'SKILL.md'),
    skillDir: s.copy.dir,
  };
}

function sandboxSteps(s: CatalogSkill, t: SandboxTarget): TargetSteps {
  const where = `sandbox ${t.configName}`;
  const install = servedInstall(t, s);
  const record = t.installs.get(s.skillKey);
  const dir = install ? sandboxSkillDir(install) : `/opt/skilldock/skills/${s.name}`;
  let eligible: TraceStep;
  const gate = t.gating?.get(s.name);
  if (!install) eligible = step('eligible', true, `not checked: not installed in ${where}`, true);
  else if (t.gatingNote?.unsupported) eligible = step('eligible', true, t.gatingNote.message, true);
  else if (!gate) eligible = step('eligible', false, t.gatingNote?.message ?? `not gated in ${where}`);
  else {
    const bad = failing(gate.trace);
    // Where each variable it needs comes from, as gating found it there.
    const env = gate.trace.find((x) => x.step === 'env' && x.pass && x.detail.startsWith('present: '));
    eligible = step(
      'eligible',
      !bad.length,
      bad.length ? `not eligible in ${where}: ${bad.join('; ')}` : `eligible in ${where}${env ? `; env ${env.detail}` : ''}`,
    );
  }
  const installed = install
    ? step(
        'installed',
        true,
        `installed in ${where}: version ${install.served.version} (${install.state === 'ready' ? 'ready' : `${install.state}, the previous ready version serves`})`,
      )
    : step('installed', false, record ? `the install in ${where} is ${record.state}: nothing ready is served` : `not installed in ${where}`);
  const enabledStep = (gate?.trace ?? s.gating.trace).find((x) => x.step === 'enabled');
  const enabled = step('enabled', enabledStep?.pass ?? true, enabledStep?.detail ?? 'not disabled in config');
  return { eligible, installed, enabled, location: `${dir}/SKILL.md`, skillDir: dir };
}

/** One skill on one target, before any list is applied. */
export function evaluateSkill(s: CatalogSkill, target: AgentTarget): SkillEval {
  const copies = [s.copy, ...s.shadowed].map((c, i) => ({ source: c.source, root: c.root, dir: c.dir, won: i === 0 }));
  const ts = target.kind === 'host' ? hostSteps(s, target.label) : sandboxSteps(s, target);
  // A sandbox may still serve an older version than the catalog's: the agent is told of that one.
  const m = (target.kind === 'sandbox' && target.manifests.get(s.skillKey)) || s.copy.parsed.manifest;
  const before = [
    step('found', true, `found in ${copies.length} root(s): ${copies.map((c) => `${c.source} (${c.root})`).join(', ')}`),
    step('copy', true, `the ${s.copy.source} copy wins${s.shadowed.length ? `, shadowing ${s.shadowed.map((c) => c.source).join(', ')}` : ''}`),
    usable(s),
    ts.eligible,
    ts.installed,
  ];
  const userOnly = m.userInvocable
    ? `disable-model-invocation is true: kept out of the prompt, served as the user command /${s.name}`
    : 'disable-model-invocation is true and user-invocable is false: neither the model nor a user can invoke it';
  const after = [ts.enabled, step('model-invocable', !m.disableModelInvocation, m.disableModelInvocation ? userOnly : 'the model may invoke it')];
  const install = target.kind === 'sandbox' ? servedInstall(target, s) : null;
  const out: EffectiveSkill = { name: s.name, description: agentDescription(m.description).text, location: ts.location, skillDir: ts.skillDir, env: envOf(m) };
  const hash = install ? `${install.served.contentHash}@${install.served.version}` : s.copy.contentHash;
  // What the answer says of the skill, its command fields included (a change of them is a new version).
  const digest = createHash('sha256')
    .update(
      JSON.stringify([
        out.name,
        out.description,
        out.location,
        out.skillDir,
        out.env,
        hash,
        m.userInvocable,
        m.disableModelInvocation,
        m.commandDispatch ?? null,
        m.commandTool ?? null,
        m.commandArgMode,
      ]),
    )
    .digest('base64');
  const reachable = before.every((x) => x.pass) && ts.enabled.pass;
  const command: SkillCommand | null =
    reachable && m.userInvocable
      ? {
          ...out,
          modelInvocable: !m.disableModelInvocation,
          userInvocable: true,
          commandDispatch: m.commandDispatch ?? null,
          commandTool: m.commandTool ?? null,
          commandArgMode: m.commandArgMode,
        }
      : null;
  const passes = reachable && !m.disableModelInvocation;
  return {
    skill: s,
    copies,
    before,
    after,
    passes,
    command,
    listed: passes || command !== null,
    out,
    block: promptBlock(out, target.home),
    hash,
    served: install?.served ?? null,
    digest,
  };
}
