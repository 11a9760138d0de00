// An agent's effective skills, each with the trace of how it got there: found in which roots →
// which copy won → usable (valid, not blocked by the scanner) → eligible on the agent's target →
// installed and served there (sandbox configs) → allowed by the list → enabled → model-invocable →
// in the prompt or cut by the budget. The effective list is the skills that pass every step. A skill
// the list excludes is reported by name and rule only: nothing else of it (description, paths,
// roots) reaches the agent on any path. Pure: the snapshot and the target come in loaded. The
// per-skill part (effective-eval.ts) does not depend on the agent, so EffectiveCache keeps it.
import { createHash } from 'node:crypto';
import type { CatalogSkill, CatalogSnapshot } from '../skills/service/catalog';
import { type Allowlist, decide, effectiveAllowlist } from './allowlist';
import { type EffectiveSkill, evaluateSkill, type SkillCommand, type SkillEval, step, type TraceStep, type TraceStepName } from './effective-eval';
import { DEFAULT_BUDGET, type PromptBudget, type RenderedCatalog, renderBlocks } from './prompt';
import type { AgentTarget } from './target';

export type { EffectiveSkill, SkillCommand, TraceStep, TraceStepName } from './effective-eval';

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

export interface ServedSkill {
  skill: CatalogSkill;
  served: SkillEval['served'];
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
  /** The skills in the prompt catalog. */
  skills: EffectiveSkill[];
  /** The user-invocable skills (slash commands), in name order; not cut by the prompt budget. */
  commands: SkillCommand[];
  prompt: RenderedCatalog;
  /** Every catalog skill in catalog order (built on first read). */
  traces: SkillTrace[];
  /** The effective skills and commands by name, with the version a sandbox serves (null on the host): the gateway reads their files. */
  copies: ReadonlyMap<string, ServedSkill>;
}

/** What an agent's computation needs besides the skills: its list, budget and target. */
export interface AgentPlan {
  agent: AgentInputs;
  list: Allowlist;
  budget: PromptBudget;
  target: Effective['target'];
  home: string | null;
}

export function planOf(defaults: DefaultsInputs, agent: AgentInputs, target: AgentTarget): AgentPlan {
  const tgt =
    target.kind === 'host'
      ? { kind: 'host' as const, configId: null, label: target.label }
      : { kind: 'sandbox' as const, configId: target.configId, label: target.configName };
  return {
    agent,
    list: effectiveAllowlist({ defaults: defaults.skills, agent: agent.skills, deny: agent.denySkills }),
    budget: agent.budget ?? defaults.budget ?? DEFAULT_BUDGET,
    target: tgt,
    home: target.home,
  };
}

/** Whether the list lets a skill of this name through (decide() without the words). */
export const allows = (list: Allowlist, name: string): boolean => !list.denied.has(name) && (list.allowed === null || list.allowed.has(name));

export const byEvalName = (a: SkillEval, b: SkillEval): number => (a.out.name < b.out.name ? -1 : a.out.name > b.out.name ? 1 : 0);

/** The skills the list allows that are in the answer (in the prompt catalog, or commands), in name order. */
export function candidatesOf(skills: readonly CatalogSkill[], list: Allowlist, evalOf: (s: CatalogSkill) => SkillEval): SkillEval[] {
  const out: SkillEval[] = [];
  for (const s of skills) {
    if (!allows(list, s.name)) continue;
    const e = evalOf(s);
    if (e.listed) out.push(e);
  }
  return out.sort(byEvalName);
}

function versionOf(plan: AgentPlan, prompt: RenderedCatalog, served: readonly SkillEval[], total: number, commands: readonly SkillEval[]): string {
  const { list, agent } = plan;
  const rule = list.rule.kind === 'agent' || list.rule.kind === 'defaults' ? { kind: list.rule.kind, list: [...list.rule.list].sort() } : list.rule;
  const head = {
    agent: agent.id,
    rule,
    deny: [...list.denied].sort(),
    budget: plan.budget,
    target: plan.target.configId,
    home: plan.home,
    form: prompt.form,
    // The truncation note names how many skills there were.
    total: prompt.truncated ? total : served.length,
  };
  const h = createHash('sha256').update(JSON.stringify(head));
  for (const e of served) h.update(`\n${e.digest}`);
  // The commands follow the catalog in the hash: the answer (and its ETag) moves when either does.
  for (const e of commands) h.update(`\nc${e.digest}`);
  return h.digest('hex');
}

/** Every catalog skill's trace for the agent, in catalog order. */
export function tracesOf(skills: readonly CatalogSkill[], plan: AgentPlan, evalOf: (s: CatalogSkill) => SkillEval, prompt: RenderedCatalog): SkillTrace[] {
  const included = new Set(prompt.included);
  const cutBy = `cut by the budget (${plan.budget.maxSkills} skills, ${plan.budget.maxChars} characters)`;
  return skills.map((s): SkillTrace => {
    const allowed = decide(plan.list, s.name);
    if (!allowed.allowed)
      return { name: s.name, excluded: true, effective: false, failedAt: 'allowed', copies: [], steps: [step('allowed', false, allowed.why)] };
    const e = evalOf(s);
    const steps = [...e.before, step('allowed', true, allowed.why), ...e.after];
    if (e.passes) {
      const inPrompt = included.has(s.name);
      steps.push(step('prompt', inPrompt, inPrompt ? `in the prompt (${prompt.form} form)` : cutBy));
    } else {
      // Every step is evaluated and shown; the prompt alone cannot be, as it needs all the others.
      const failed = steps.filter((x) => !x.pass && !x.skipped).map((x) => x.step);
      steps.push(step('prompt', false, `not reached: it fails ${failed.join(', ')}`, true));
    }
    const failedAt = steps.find((x) => !x.pass)?.step ?? null;
    return { name: s.name, excluded: false, effective: failedAt === null, failedAt, copies: e.copies, steps };
  });
}

/** The agent's answer from its candidates (in name order); the traces are built when first read. */
export function assemble(
  plan: AgentPlan,
  skills: readonly CatalogSkill[],
  candidates: readonly SkillEval[],
  evalOf: (s: CatalogSkill) => SkillEval,
): Effective {
  const model = candidates.filter((c) => c.passes);
  const prompt = renderBlocks(
    model.map((c) => c.block),
    plan.budget,
  );
  const served = model.slice(0, prompt.included.length);
  const commands = candidates.filter((c) => c.command);
  return withTraces(
    {
      agentId: plan.agent.id,
      version: versionOf(plan, prompt, served, model.length, commands),
      target: plan.target,
      budget: plan.budget,
      skills: served.map((c) => c.out),
      commands: commands.map((c) => c.command!),
      prompt,
      copies: new Map([...served, ...commands].map((c) => [c.skill.name, { skill: c.skill, served: c.served }])),
    },
    () => tracesOf(skills, plan, evalOf, prompt),
  );
}

/** The same answer with traces built (once, on first read) by `build`. */
export function withTraces(e: Omit<Effective, 'traces'>, build: () => SkillTrace[]): Effective {
  let traces: SkillTrace[] | undefined;
  return {
    agentId: e.agentId,
    version: e.version,
    target: e.target,
    budget: e.budget,
    skills: e.skills,
    commands: e.commands,
    prompt: e.prompt,
    copies: e.copies,
    get traces() {
      traces ??= build();
      return traces;
    },
  };
}

/** The effective skills, the rendered prompt, the traces and the version of one agent, from scratch. */
export function computeEffective(snapshot: CatalogSnapshot, defaults: DefaultsInputs, agent: AgentInputs, target: AgentTarget): Effective {
  const plan = planOf(defaults, agent, target);
  const evals = new Map<CatalogSkill, SkillEval>();
  const evalOf = (s: CatalogSkill) => {
    let e = evals.get(s);
    if (!e) evals.set(s, (e = evaluateSkill(s, target)));
    return e;
  };
  return assemble(plan, snapshot.skills, candidatesOf(snapshot.skills, plan.list, evalOf), evalOf);
}
