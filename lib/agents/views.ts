// The console's aggregated reads of agents: every agent with its skill scope and prompt cost (the
// list), the allowlist matrix (agents × the catalog's skills), which agents can use one skill (and
// the rule that blocks the others), and an agent's budget planner (each skill's cost in the full and
// compact form, and what a budget keeps, compacts or cuts). Built on the same effective-skill
// computation the gateway answers from, so the console shows what an agent really gets.
import { AppError } from '../core/errors';
import { baseCost, DEFAULT_BUDGET, type PromptBudget, renderCatalog, skillCosts } from './prompt';
import { type AgentsDeps, effectiveContext } from './service';
import { agentView, defaultsView, listAgentRows, loadAgent } from './store';
import type { BudgetPlanQuery } from './view-schemas';

/** A budget nothing exceeds: the planner's view of every skill that passes every step but the prompt. */
const UNBOUNDED: PromptBudget = { maxSkills: Number.MAX_SAFE_INTEGER, maxChars: Number.MAX_SAFE_INTEGER };
const MAX_DESCRIPTION = 240;

const short = (s: string) => (s.length > MAX_DESCRIPTION ? `${s.slice(0, MAX_DESCRIPTION - 1)}…` : s);

export type SkillScope = { kind: 'inherits' } | { kind: 'own'; count: number } | { kind: 'none' };
const scopeOf = (skills: readonly string[] | null): SkillScope =>
  skills === null ? { kind: 'inherits' } : skills.length ? { kind: 'own', count: skills.length } : { kind: 'none' };

/** Every agent with its scope, deny count, target and what its prompt costs; and the defaults. */
export async function agentSummaries(deps: AgentsDeps) {
  const [ctx, rows] = await Promise.all([effectiveContext(deps), listAgentRows(deps.db)]);
  const known = new Set(ctx.snapshot.skills.map((s) => s.name));
  const items = [];
  for (const row of rows) {
    const e = await ctx.of(row);
    items.push({
      ...agentView(row, known),
      scope: scopeOf(row.skills),
      denyCount: row.denySkills.length,
      target: e.target,
      effective: {
        count: e.skills.length,
        chars: e.prompt.chars,
        tokens: e.prompt.tokens,
        form: e.prompt.form,
        truncated: e.prompt.truncated,
        version: e.version,
      },
    });
  }
  return { defaults: defaultsView(ctx.defaults, known), builtinBudget: DEFAULT_BUDGET, catalogSkills: known.size, items };
}

/** The matrix's data: the catalog's skills (columns) and each agent's lists (rows); no effective sets. */
export async function allowlistMatrix(deps: AgentsDeps) {
  const [ctx, rows] = await Promise.all([effectiveContext(deps), listAgentRows(deps.db)]);
  const skills = ctx.snapshot.skills
    .map((s) => ({ name: s.name, source: s.copy.source, status: s.status, description: short(s.copy.parsed.manifest.description ?? '') }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    defaults: { skills: ctx.defaults.skills, unrestricted: ctx.defaults.skills === null, revision: ctx.defaults.revision },
    skills,
    agents: rows.map((r) => ({
      id: r.id,
      name: r.name,
      revision: r.revision,
      skills: r.skills,
      inheritsDefaults: r.skills === null,
      denySkills: r.denySkills,
    })),
  };
}

/** For one skill: each agent, whether it gets the skill, and the first step that keeps it out. */
export async function skillAgents(deps: AgentsDeps, name: string) {
  const [ctx, rows] = await Promise.all([effectiveContext(deps), listAgentRows(deps.db)]);
  if (!ctx.snapshot.skills.some((s) => s.name === name))
    throw new AppError('not_found', `No skill "${name}" is in the catalog; an allowlist naming it is kept and warned about until one appears.`);
  const items = [];
  for (const row of rows) {
    const e = await ctx.of(row);
    const t = e.traces.find((x) => x.name === name);
    if (!t) continue;
    const allowed = t.steps.find((s) => s.step === 'allowed');
    const failed = t.failedAt ? t.steps.find((s) => s.step === t.failedAt) : undefined;
    items.push({
      agentId: row.id,
      agentName: row.name,
      scope: scopeOf(row.skills),
      effective: t.effective,
      excluded: t.excluded,
      failedAt: t.failedAt,
      rule: allowed?.detail ?? '',
      reason: failed?.detail ?? null,
    });
  }
  return { skill: name, usable: items.filter((i) => i.effective).length, items };
}

type PlanState = 'full' | 'compact' | 'cut-count' | 'cut-chars';

/**
 * The budget planner of an agent: each skill the prompt could carry with what its block costs in the
 * full and compact form, the catalog under the agent's budget (or one to try) and what it keeps.
 */
export async function budgetPlan(deps: AgentsDeps, id: string, tryBudget: BudgetPlanQuery = {}) {
  const row = await loadAgent(deps.db, id);
  const ctx = await effectiveContext(deps);
  const [actual, all] = await Promise.all([ctx.of(row), ctx.of({ ...row, budget: UNBOUNDED })]);
  const home = actual.target.kind === 'host' ? deps.home : null;
  const budget: PromptBudget = { maxSkills: tryBudget.maxSkills ?? actual.budget.maxSkills, maxChars: tryBudget.maxChars ?? actual.budget.maxChars };
  const rendered = renderCatalog(all.skills, budget, home);
  const costs = skillCosts(all.skills, home);
  const sum = (k: 'full' | 'compact') => (costs.length ? baseCost(k, home) + costs.reduce((n, c) => n + c[k], 0) : 0);
  const included = new Set(rendered.included);
  const skills = costs.map((c, i) => {
    const state: PlanState = included.has(c.name) ? rendered.form : i >= budget.maxSkills ? 'cut-count' : 'cut-chars';
    return { ...c, state };
  });
  return {
    agentId: row.id,
    target: actual.target,
    agentBudget: actual.budget,
    ownBudget: row.budget,
    budget,
    trying: tryBudget.maxSkills !== undefined || tryBudget.maxChars !== undefined,
    candidates: all.skills.length,
    fullChars: sum('full'),
    compactChars: sum('compact'),
    prompt: {
      text: rendered.text,
      chars: rendered.chars,
      tokens: rendered.tokens,
      form: rendered.form,
      truncated: rendered.truncated,
      included: rendered.included,
      cut: rendered.cut,
    },
    skills,
  };
}
