// Which of a skill's documented commands a profile would not run: for the explain trace and the
// agent's page, so a skill does not show as ready while the profile refuses what it documents.
import type { PolicyEngine } from '../engine/engine';
import type { Decision, EvaluationContext, ProfileRules } from '../types';

export interface DeniedCommand {
  command: string;
  decision: Exclude<Decision, 'allow'>;
  rule: string;
  ruleId?: string;
  reason: string;
}

/** Every command the rules would deny or hold for approval, in the order given (pure: nothing runs). */
export function commandsDeniedFor(
  engine: Pick<PolicyEngine, 'evaluate'>,
  rules: ProfileRules,
  commands: readonly string[],
  ctx?: EvaluationContext,
): DeniedCommand[] {
  const out: DeniedCommand[] = [];
  for (const command of commands) {
    const e = engine.evaluate(command, rules, ctx);
    if (e.decision === 'allow') continue;
    out.push({ command, decision: e.decision, rule: e.rule, ...(e.ruleId ? { ruleId: e.ruleId } : {}), reason: e.reason });
  }
  return out;
}
