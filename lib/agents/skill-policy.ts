// The exec-policy step of a skill's explain trace: which of the commands its SKILL.md documents
// (and which of its required binaries) the agent's profile would deny or hold for approval. A
// warning, never a failed step: the skill still reaches the prompt, and the trace says what of it
// will not run. Kept per (skill content, profile rules): an explain reads a map, it does not parse
// every SKILL.md again.
import { createHash } from 'node:crypto';
import type { DeniedCommand } from '../policy/skills/check';
import { commandsDeniedFor } from '../policy/skills/check';
import { documentedCommands } from '../policy/skills/commands';
import type { EvaluationContext, ProfileRules } from '../policy/types';
import type { CatalogSkill } from '../skills/service/catalog';
import { step, type TraceStep } from './effective-eval';

/** Commands of one SKILL.md judged at most (the first ones, in document order). */
export const MAX_DOCUMENTED = 24;
const MAX_ENTRIES = 4096;
const SHOWN = 3;

export interface SkillPolicyResult {
  checked: number;
  truncated: boolean;
  bins: DeniedCommand[];
  commands: DeniedCommand[];
}

export interface AgentPolicyView {
  profile: string;
  rules: ProfileRules;
}

type Engine = Parameters<typeof commandsDeniedFor>[0];

const rulesKey = (rules: ProfileRules) => createHash('sha256').update(JSON.stringify(rules)).digest('base64');

/** Results by `${contentHash}|${rulesKey}`, oldest dropped first past MAX_ENTRIES. */
export class SkillPolicyCache {
  private readonly kept = new Map<string, SkillPolicyResult>();
  private readonly keys = new WeakMap<ProfileRules, string>();
  evaluated = 0;

  check(engine: Engine, skill: CatalogSkill, rules: ProfileRules, skillDir: string): SkillPolicyResult {
    let rk = this.keys.get(rules);
    if (!rk) this.keys.set(rules, (rk = rulesKey(rules)));
    const key = `${skill.copy.contentHash}|${skillDir}|${rk}`;
    const hit = this.kept.get(key);
    if (hit) return hit;
    const m = skill.copy.parsed.manifest;
    const doc = documentedCommands(m.body, MAX_DOCUMENTED, skillDir);
    // Judged where an agent's commands run by default (the workspace); `{baseDir}` is the skill's folder.
    const ctx: EvaluationContext = {};
    const bins = [...new Set([...m.requires.bins, ...m.requires.anyBins])].filter((b) => /^[A-Za-z0-9._+-]{1,128}$/.test(b));
    const result: SkillPolicyResult = {
      checked: doc.commands.length,
      truncated: doc.truncated,
      bins: commandsDeniedFor(engine, rules, bins, ctx),
      commands: commandsDeniedFor(engine, rules, doc.commands, ctx),
    };
    this.evaluated++;
    this.kept.set(key, result);
    if (this.kept.size > MAX_ENTRIES) this.kept.delete(this.kept.keys().next().value as string);
    return result;
  }
}

const short = (c: string) => {
  // Backslash continuations joined without a regex that could backtrack over runs of blanks.
  const one = c
    .split('\\\n')
    .map((p, i, all) => (i === 0 ? p.trimEnd() : i === all.length - 1 ? p.trimStart() : p.trim()))
    .join(' ');
  return one.length > 60 ? `${one.slice(0, 57)}…` : one;
};
const verb = (d: DeniedCommand) => (d.decision === 'deny' ? 'denied' : 'held for approval');
const listed = (ds: readonly DeniedCommand[]) =>
  ds
    .slice(0, SHOWN)
    .map((d) => `${short(d.command)} (${verb(d)}: ${d.ruleId ?? d.rule})`)
    .join('; ') + (ds.length > SHOWN ? `; and ${ds.length - SHOWN} more` : '');

/** The trace step: a warning naming what would not run, or a pass saying what was checked. */
export function policyStep(r: SkillPolicyResult, profile: string): TraceStep {
  const parts: string[] = [];
  if (r.bins.length) parts.push(`${r.bins.length} of its required binaries would not run under profile ${profile}: ${listed(r.bins)}`);
  if (r.commands.length)
    parts.push(
      `${r.commands.length} of the ${r.checked}${r.truncated ? ' first' : ''} commands its SKILL.md documents would not run under profile ${profile}: ${listed(r.commands)}`,
    );
  if (parts.length) return { ...step('policy', true, parts.join('. ')), warning: true };
  return step(
    'policy',
    true,
    r.checked
      ? `the ${r.checked}${r.truncated ? ' first' : ''} commands its SKILL.md documents run under profile ${profile}`
      : `its SKILL.md documents no shell commands; its required binaries run under profile ${profile}`,
  );
}
