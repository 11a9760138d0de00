// The exec policy as the API uses it: decide a command under a profile (a name, inline rules, an
// agent's effective rules; none: balanced), and replay a list of commands under the current and a
// proposed profile. Nothing here runs a command.
import { and, desc, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { execLog } from '@/db/schema';
import type { ProfileRef } from './profiles/schema';
import { agentPolicy, DEFAULT_PROFILE, type ProfileStoreDeps, profileRules } from './profiles/store';
import type { Evaluation, EvaluationContext, ProfileRules, TreeNode } from './types';

/** What the service needs of the engine (lib/policy/engine/engine.ts). */
export interface PolicyEngineLike {
  evaluate(command: string, rules: ProfileRules, ctx?: EvaluationContext): Evaluation;
  tree(command: string): TreeNode;
}

/** Decides off the event loop with a time budget (engine/pool.ts); absent: in this thread. */
export interface PolicyOffload {
  evaluate(command: string, rules: ProfileRules, ctx?: EvaluationContext, tree?: boolean): Promise<{ evaluation: Evaluation; tree?: TreeNode }>;
  replay(commands: string[], current: ProfileRules, proposed: ProfileRules): Promise<ReturnType<typeof replayItem>[]>;
}

export interface PolicyDeps extends ProfileStoreDeps {
  db: AppDb;
  engine: () => Promise<PolicyEngineLike>;
  offload?: PolicyOffload;
}

export interface ResolvedRules {
  /** The profile's name, `inline` for inline rules, or `agent:<id>` for an agent's effective rules. */
  label: string;
  rules: ProfileRules;
}

export async function rulesOf(deps: PolicyDeps, ref: ProfileRef | undefined): Promise<ResolvedRules> {
  if (ref === undefined) return { label: DEFAULT_PROFILE, rules: await profileRules(deps, DEFAULT_PROFILE) };
  if (typeof ref === 'string') return { label: ref, rules: await profileRules(deps, ref) };
  return { label: 'inline', rules: ref };
}

export async function evaluateCommand(
  deps: PolicyDeps,
  input: { command: string; profile?: ProfileRef; agentId?: string; cwd?: string; tree?: boolean },
): Promise<Evaluation & { profile: string; tree?: TreeNode }> {
  let r: ResolvedRules;
  if (input.agentId && input.profile === undefined) {
    const p = await agentPolicy(deps, input.agentId);
    r = { label: p.profile, rules: p.rules };
  } else r = await rulesOf(deps, input.profile);
  if (deps.offload) {
    const out = await deps.offload.evaluate(input.command, r.rules, input.cwd ? { cwd: input.cwd } : undefined, input.tree);
    return { ...out.evaluation, profile: r.label, ...(out.tree ? { tree: out.tree } : {}) };
  }
  const engine = await deps.engine();
  const e = engine.evaluate(input.command, r.rules, input.cwd ? { cwd: input.cwd } : undefined);
  return { ...e, profile: r.label, ...(input.tree ? { tree: engine.tree(input.command) } : {}) };
}

const verdict = (e: Evaluation) => ({ decision: e.decision, rule: e.rule, segment: e.segment, reason: e.reason });

function replayItem(engine: PolicyEngineLike, command: string, current: ProfileRules, proposed: ProfileRules) {
  const before = verdict(engine.evaluate(command, current));
  const after = verdict(engine.evaluate(command, proposed));
  return { command, before, after, changed: before.decision !== after.decision || before.rule !== after.rule };
}

export async function replayCommands(
  deps: PolicyDeps,
  input: { commands?: string[]; agentId?: string; limit: number; current?: ProfileRef; proposed: ProfileRef },
) {
  let commands = input.commands;
  if (!commands) {
    const rows = await deps.db
      .select({ command: execLog.command })
      .from(execLog)
      .where(and(eq(execLog.agentId, input.agentId!)))
      .orderBy(desc(execLog.at))
      .limit(input.limit);
    commands = rows.map((r) => r.command);
  }
  let current: ResolvedRules;
  if (input.current === undefined && input.agentId) {
    const p = await agentPolicy(deps, input.agentId);
    current = { label: p.profile, rules: p.rules };
  } else current = await rulesOf(deps, input.current);
  const proposed = await rulesOf(deps, input.proposed);
  const list = commands;
  const items = deps.offload
    ? await deps.offload.replay(list, current.rules, proposed.rules)
    : await deps.engine().then((engine) => list.map((command) => replayItem(engine, command, current.rules, proposed.rules)));
  const counts = {
    total: items.length,
    changed: items.filter((i) => i.changed).length,
    newlyPassing: items.filter((i) => i.before.decision !== 'allow' && i.after.decision === 'allow').length,
    newlyFailing: items.filter((i) => i.before.decision === 'allow' && i.after.decision !== 'allow').length,
  };
  return { items, counts, current: current.label, proposed: proposed.label };
}
