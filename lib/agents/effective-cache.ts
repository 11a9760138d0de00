// Effective skills kept between requests and brought up to date by what changed. A skill's
// evaluation on a target is kept by the catalog skill object (the catalog keeps the object of a
// skill nothing of which changed), so a new snapshot re-evaluates its changed skills only; each
// agent keeps its last answer with the inputs it came from: the same inputs return it as it is, a
// new snapshot patches its candidates by the skills that changed (an agent whose list can include
// none of them keeps its answer), and a list, defaults, budget or target change recomputes that
// agent alone over the kept evaluations. Answers equal computeEffective's from scratch.
import type { CatalogSkill, CatalogSnapshot } from '../skills/service/catalog';
import {
  type AgentInputs,
  type AgentPlan,
  allows,
  assemble,
  candidatesOf,
  type DefaultsInputs,
  type Effective,
  planOf,
  tracesOf,
  withTraces,
} from './effective';
import { evaluateSkill, type SkillEval } from './effective-eval';
import type { AgentTarget } from './target';

interface AgentState {
  key: string;
  target: AgentTarget;
  skills: readonly CatalogSkill[];
  plan: AgentPlan;
  candidates: SkillEval[];
  result: Effective;
}

export interface EffectiveCacheStats {
  /** Skills evaluated on a target (each at most once per catalog skill object and target). */
  skillEvals: number;
  /** Agents computed over every skill (first time, or an input of theirs changed). */
  full: number;
  /** Agents brought to a new snapshot by the skills that changed. */
  patched: number;
  /** Agents answered with their kept answer (inputs unchanged, or no changed skill reaches them). */
  reused: number;
}

const MAX_AGENTS = 10_000;
const MAX_TARGETS = 256;

const inputKey = (defaults: DefaultsInputs, agent: AgentInputs) =>
  JSON.stringify([agent.id, agent.skills, agent.denySkills, agent.budget, defaults.skills, defaults.budget]);

/** Where `name` sits in candidates sorted by name (its index, or where it would go). */
function indexOf(candidates: readonly SkillEval[], name: string): number {
  let lo = 0;
  let hi = candidates.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (candidates[mid].out.name < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class EffectiveCache {
  readonly stats: EffectiveCacheStats = { skillEvals: 0, full: 0, patched: 0, reused: 0 };
  private readonly agents = new Map<string, AgentState>();
  private readonly evals = new WeakMap<AgentTarget, WeakMap<CatalogSkill, SkillEval>>();
  /** One object per distinct target content, so its evaluations are kept across loads. */
  private readonly targets = new Map<string, AgentTarget>();
  /** The catalog skills of a snapshot by name, once per skills array. */
  private readonly byName = new WeakMap<readonly CatalogSkill[], Map<string, CatalogSkill>>();
  /** Names whose skill changed between two arrays, once per pair. */
  private readonly diffs = new WeakMap<readonly CatalogSkill[], { to: readonly CatalogSkill[]; names: string[] }>();

  /** The kept target equal to `t` (same content), or `t` itself from now on. */
  canonicalTarget(t: AgentTarget): AgentTarget {
    const key = targetKey(t);
    const kept = this.targets.get(key);
    if (kept) return kept;
    if (this.targets.size >= MAX_TARGETS) this.targets.delete(this.targets.keys().next().value as string);
    this.targets.set(key, t);
    return t;
  }

  private namesOf(skills: readonly CatalogSkill[]): Map<string, CatalogSkill> {
    let m = this.byName.get(skills);
    if (!m) this.byName.set(skills, (m = new Map(skills.map((s) => [s.name, s]))));
    return m;
  }

  /** Names whose skill is not the same object in both (changed, added or removed). */
  private changedNames(from: readonly CatalogSkill[], to: readonly CatalogSkill[]): string[] {
    const hit = this.diffs.get(from);
    if (hit?.to === to) return hit.names;
    const a = this.namesOf(from);
    const b = this.namesOf(to);
    const names: string[] = [];
    for (const [n, s] of b) if (a.get(n) !== s) names.push(n);
    for (const n of a.keys()) if (!b.has(n)) names.push(n);
    this.diffs.set(from, { to, names });
    return names;
  }

  private evaluator(target: AgentTarget): (s: CatalogSkill) => SkillEval {
    let memo = this.evals.get(target);
    if (!memo) this.evals.set(target, (memo = new WeakMap()));
    const m = memo;
    return (s) => {
      let e = m.get(s);
      if (!e) {
        e = evaluateSkill(s, target);
        m.set(s, e);
        this.stats.skillEvals++;
      }
      return e;
    };
  }

  /** Drops what is kept of an agent (it was deleted). */
  forget(agentId: string): void {
    this.agents.delete(agentId);
  }

  get size(): number {
    return this.agents.size;
  }

  /** The agent's effective skills; `target` should come from canonicalTarget (or be kept by the caller). */
  effective(snapshot: CatalogSnapshot, defaults: DefaultsInputs, agent: AgentInputs, target: AgentTarget): Effective {
    const key = inputKey(defaults, agent);
    const skills = snapshot.skills;
    const prev = this.agents.get(agent.id);
    const evalOf = this.evaluator(target);
    if (prev && prev.key === key && prev.target === target) {
      if (prev.skills === skills) {
        this.stats.reused++;
        return prev.result;
      }
      return this.store(agent.id, this.patch(prev, skills, evalOf));
    }
    this.stats.full++;
    const plan = planOf(defaults, agent, target);
    const candidates = candidatesOf(skills, plan.list, evalOf);
    return this.store(agent.id, { key, target, skills, plan, candidates, result: assemble(plan, skills, candidates, evalOf) });
  }

  private store(id: string, state: AgentState): Effective {
    this.agents.delete(id);
    this.agents.set(id, state);
    if (this.agents.size > MAX_AGENTS) this.agents.delete(this.agents.keys().next().value as string);
    return state.result;
  }

  /** The agent's state on a new snapshot: only the skills that changed are looked at. */
  private patch(prev: AgentState, skills: readonly CatalogSkill[], evalOf: (s: CatalogSkill) => SkillEval): AgentState {
    const names = this.changedNames(prev.skills, skills);
    const now = this.namesOf(skills);
    const { plan } = prev;
    let candidates = prev.candidates;
    let changed = false;
    for (const name of names) {
      if (!allows(plan.list, name)) continue;
      const s = now.get(name);
      const e = s ? evalOf(s) : null;
      const at = indexOf(candidates, name);
      const had = at < candidates.length && candidates[at].out.name === name;
      if (!had && !e?.listed) continue;
      if (had && e?.listed && candidates[at] === e) continue;
      if (!changed) candidates = [...candidates];
      changed = true;
      if (had && e?.listed) candidates[at] = e;
      else if (had) candidates.splice(at, 1);
      else candidates.splice(at, 0, e!);
    }
    if (!changed) {
      this.stats.reused++;
      // The same answer; its traces follow the new snapshot (a skill the list excludes may have come or gone).
      return { ...prev, skills, result: withTraces(prev.result, () => tracesOf(skills, plan, evalOf, prev.result.prompt)) };
    }
    this.stats.patched++;
    return { ...prev, skills, candidates, result: assemble(plan, skills, candidates, evalOf) };
  }
}

/** What a target's evaluations depend on, as a string: equal strings evaluate every skill alike. */
export function targetKey(t: AgentTarget): string {
  if (t.kind === 'host') return JSON.stringify(['host', t.label, t.home]);
  return JSON.stringify([
    'sandbox',
    t.configId,
    t.configName,
    t.backend,
    [...t.installs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    [...t.manifests].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    t.gating ? [...t.gating].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null,
    t.gatingNote,
  ]);
}
