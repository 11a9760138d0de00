// An agent's effective skills, each with the trace of how it got there: found in which roots →
// which copy won → usable (valid, not blocked by the scanner) → eligible on the agent's target →
// installed and served there (sandbox configs) → allowed by the list → enabled → model-invocable →
// in the prompt or cut by the budget. The effective list is the skills that pass every step. A skill
// the list excludes is reported by name and rule only: nothing else of it (description, paths,
// roots) reaches the agent on any path. Pure: the snapshot and the target come in loaded.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ServedVersion } from '@/db/schema/installs';
import { agentDescription } from '../skills/manifest';
import type { CatalogSkill, CatalogSnapshot } from '../skills/service/catalog';
import type { GateStep, SkillManifest } from '../skills/types';
import { type Allowlist, decide, effectiveAllowlist } from './allowlist';
import { DEFAULT_BUDGET, type PromptBudget, type PromptSkill, type RenderedCatalog, renderCatalog } from './prompt';
import { type AgentTarget, type SandboxTarget, sandboxSkillDir, servedInstall } from './target';

export type TraceStepName = 'found' | 'copy' | 'usable' | 'eligible' | 'installed' | 'allowed' | 'enabled' | 'model-invocable' | 'prompt';

export interface TraceStep {
  step: TraceStepName;
  pass: boolean;
  skipped?: boolean;
  detail: string;
}

export interface SkillTrace {
  name: string;
  /** The list excludes it: the trace holds the rule alone. */
  excluded: boolean;
  effective: boolean;
  /** The first step that failed, or null. */
  failedAt: TraceStepName | null;
  copies: { source: string; root: string; dir: string; won: boolean }[];
  steps: TraceStep[];
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

export interface ServedSkill {
  skill: CatalogSkill;
  served: ServedVersion | null;
}

export interface AgentInputs {
  id: string;
  skills: readonly string[] | null;
  denySkills: readonly string[];
  budget: PromptBudget | null;
}

export interface DefaultsInputs {
  skills: readonly string[] | null;
  budget: PromptBudget | null;
}

export interface Effective {
  agentId: string;
  version: string;
  target: { kind: 'host' | 'sandbox'; configId: string | null; label: string };
  budget: PromptBudget;
  skills: EffectiveSkill[];
  prompt: RenderedCatalog;
  traces: SkillTrace[];
  /** The effective skills by name, with the version a sandbox serves (null on the host): the gateway reads their files. */
  copies: ReadonlyMap<string, ServedSkill>;
}

const step = (s: TraceStepName, pass: boolean, detail: string, skipped = false): TraceStep => ({ step: s, pass, detail, ...(skipped ? { skipped } : {}) });
const failing = (trace: GateStep[]) => trace.filter((t) => !t.pass && t.step !== 'enabled').map((t) => `${t.step}: ${t.detail}`);
const envOf = (m: SkillManifest) => {
  return [...new Set(m.primaryEnv ? [...m.requires.env, m.primaryEnv] : m.requires.env)].sort();
};

function usable(s: CatalogSkill): TraceStep {
  if (s.status === 'invalid') {
    const errors = s.copy.parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
    return step('usable', false, `SKILL.md is not valid: ${errors.join('; ') || 'see the skill page'}`);
  }
  if (s.status === 'blocked') return step('usable', false, `the scanner's verdict is ${s.scan.verdict} and no one acknowledged it: blocked`);
  return step('usable', true, `valid; scanner verdict ${s.scan.verdict}${s.ack ? ' (acknowledged)' : ''}`);
}

/** Eligibility, install and enabled steps on the agent's target. */
function targetSteps(s: CatalogSkill, t: AgentTarget): { steps: TraceStep[]; location: string; skillDir: string } {
  if (t.kind === 'host') {
    const bad = failing(s.gating.trace);
    const enabledStep = s.gating.trace.find((x) => x.step === 'enabled');
    return {
      steps: [
        step('eligible', !bad.length, bad.length ? `not eligible on ${t.label}: ${bad.join('; ')}` : `eligible on ${t.label}`),
        step('installed', true, 'runs on the host: nothing to install', true),
        step('enabled', !s.gating.disabled, enabledStep?.detail ?? 'not disabled in config'),
      ],
      location: path.join(s.copy.dir, 'SKILL.md'),
      skillDir: s.copy.dir,
    };
  }
  return sandboxSteps(s, t);
}

function sandboxSteps(s: CatalogSkill, t: SandboxTarget): { steps: TraceStep[]; location: string; skillDir: string } {
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
    eligible = step('eligible', !bad.length, bad.length ? `not eligible in ${where}: ${bad.join('; ')}` : `eligible in ${where}`);
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
  return { steps: [eligible, installed, enabled], location: `${dir}/SKILL.md`, skillDir: dir };
}

const ORDER: TraceStepName[] = ['found', 'copy', 'usable', 'eligible', 'installed', 'allowed', 'enabled', 'model-invocable', 'prompt'];

function budgetOf(agent: AgentInputs, defaults: DefaultsInputs): PromptBudget {
  return agent.budget ?? defaults.budget ?? DEFAULT_BUDGET;
}

function hashOf(
  agent: AgentInputs,
  list: Allowlist,
  budget: PromptBudget,
  target: Effective['target'],
  served: { s: EffectiveSkill; hash: string }[],
  text: string,
) {
  const rule = list.rule.kind === 'agent' || list.rule.kind === 'defaults' ? { kind: list.rule.kind, list: [...list.rule.list].sort() } : list.rule;
  const input = {
    agent: agent.id,
    rule,
    deny: [...list.denied].sort(),
    budget,
    target: target.configId,
    skills: served.map(({ s, hash }) => [s.name, s.description, s.location, s.env, hash]),
    text,
  };
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

/** The effective skills, the rendered prompt, the traces and the version of one agent. */
export function computeEffective(snapshot: CatalogSnapshot, defaults: DefaultsInputs, agent: AgentInputs, target: AgentTarget): Effective {
  const list = effectiveAllowlist({ defaults: defaults.skills, agent: agent.skills, deny: agent.denySkills });
  const budget = budgetOf(agent, defaults);
  const traces: SkillTrace[] = [];
  const candidates: { skill: CatalogSkill; trace: SkillTrace; out: EffectiveSkill; hash: string; served: ServedVersion | null }[] = [];
  for (const s of snapshot.skills) {
    const allowed = decide(list, s.name);
    if (!allowed.allowed) {
      traces.push({ name: s.name, excluded: true, effective: false, failedAt: 'allowed', copies: [], steps: [step('allowed', false, allowed.why)] });
      continue;
    }
    const copies = [s.copy, ...s.shadowed].map((c, i) => ({ source: c.source, root: c.root, dir: c.dir, won: i === 0 }));
    const ts = targetSteps(s, target);
    // A sandbox may still serve an older version than the catalog's: the agent is told of that one.
    const m = (target.kind === 'sandbox' && target.manifests.get(s.skillKey)) || s.copy.parsed.manifest;
    const steps = [
      step('found', true, `found in ${copies.length} root(s): ${copies.map((c) => `${c.source} (${c.root})`).join(', ')}`),
      step('copy', true, `the ${s.copy.source} copy wins${s.shadowed.length ? `, shadowing ${s.shadowed.map((c) => c.source).join(', ')}` : ''}`),
      usable(s),
      ...ts.steps,
      step('allowed', true, allowed.why),
      step(
        'model-invocable',
        !m.disableModelInvocation,
        m.disableModelInvocation ? 'disable-model-invocation is true: only a user can invoke it' : 'the model may invoke it',
      ),
    ].sort((a, b) => ORDER.indexOf(a.step) - ORDER.indexOf(b.step));
    const trace: SkillTrace = { name: s.name, excluded: false, effective: false, failedAt: null, copies, steps };
    traces.push(trace);
    if (steps.every((x) => x.pass)) {
      const install = target.kind === 'sandbox' ? servedInstall(target, s) : null;
      const out = { name: s.name, description: agentDescription(m.description).text, location: ts.location, skillDir: ts.skillDir, env: envOf(m) };
      const hash = install ? `${install.served.contentHash}@${install.served.version}` : s.copy.contentHash;
      candidates.push({ skill: s, trace, out, hash, served: install?.served ?? null });
    }
  }
  const prompt = renderCatalog(
    candidates.map((c): PromptSkill => c.out),
    budget,
    target.home,
  );
  const included = new Set(prompt.included);
  const served = [];
  for (const c of candidates) {
    const inPrompt = included.has(c.skill.name);
    c.trace.steps.push(
      step(
        'prompt',
        inPrompt,
        inPrompt ? `in the prompt (${prompt.form} form)` : `cut by the budget (${budget.maxSkills} skills, ${budget.maxChars} characters)`,
      ),
    );
    if (inPrompt) served.push(c);
  }
  for (const t of traces) {
    t.failedAt = t.steps.find((x) => !x.pass)?.step ?? null;
    t.effective = t.failedAt === null && !t.excluded;
  }
  served.sort((a, b) => (a.out.name < b.out.name ? -1 : a.out.name > b.out.name ? 1 : 0));
  const tgt =
    target.kind === 'host'
      ? { kind: 'host' as const, configId: null, label: target.label }
      : { kind: 'sandbox' as const, configId: target.configId, label: target.configName };
  const version = hashOf(
    agent,
    list,
    budget,
    tgt,
    served.map((c) => ({ s: c.out, hash: c.hash })),
    prompt.text,
  );
  return {
    agentId: agent.id,
    version,
    target: tgt,
    budget,
    skills: served.map((c) => c.out),
    prompt,
    traces,
    copies: new Map(served.map((c) => [c.skill.name, { skill: c.skill, served: c.served }])),
  };
}
