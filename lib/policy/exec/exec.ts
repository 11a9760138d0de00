// The gateway's exec: decide the command with the agent's effective rules, then deny (nothing is
// started), ask an admin (wait, or answer with the request id), or run it with the sandbox's shell in
// a sandbox of the agent's config — the command was parsed and judged as a whole, so `sh -c` runs
// exactly what was judged. Every call leaves an exec_log row and an audit record.
import type { AppDb } from '@/db/client';
import { execLog } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import { maskCommand } from '../../audit/mask-command';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import { newId } from '../../core/ids';
import { SKILLS_ROOT } from '../../sandbox/images/snapshot-names';
import type { PolicySettings } from '../../settings/policy-settings';
import {
  type ApprovalBinding,
  type ApprovalDeps,
  type ApprovalRow,
  consumeApproval,
  requestApproval,
  stdinDigest,
  waitForDecision,
} from '../approvals/approvals';
import type { PolicyDeps } from '../decide';
import { agentPolicy } from '../profiles/store';
import { registryInstall } from '../rules/package-installs';
import type { Evaluation, EvaluationContext } from '../types';
import { type AgentSandbox, runInSandbox, type SandboxDeps, scriptDigests } from './run';
import { sessionContext } from './sessions';

export interface ExecDeps extends PolicyDeps, SandboxDeps, Pick<ApprovalDeps, 'decisions'> {
  settings: () => Promise<PolicySettings>;
  /** The skills the agent may use (its prompt skills and its commands), with their folders in its sandbox. */
  agentSkills: (agentId: string) => Promise<AgentSkillRef[]>;
  /** How often a waiting exec re-reads its approval row (decisions of other processes). */
  approvalPollMs?: number;
}

/** One of an agent's skills as an exec needs it: its folder, its key and the env names it declares. */
export interface AgentSkillRef {
  name: string;
  dir: string;
  key: string;
  env: readonly string[];
}

export interface ExecRequestInput {
  command: string;
  cwd?: string;
  /** The skill the command runs for: its variables go into the run. */
  skill?: string;
  timeoutMs?: number;
  stdin?: string;
  sessionId?: string;
  approvalId?: string;
}

type Outcome = 'ran' | 'denied' | 'pending' | 'rejected' | 'expired' | 'failed';

export interface ExecAnswer {
  decision: Evaluation['decision'];
  rule: string;
  segment: string;
  reason: string;
  segments: Evaluation['segments'];
  profile: string;
  outcome: Outcome;
  approvalId: string | null;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  durationMs: number | null;
  sandboxId: string | null;
  writtenFiles: string[];
  logId: string;
}

/**
 * A command that only installs or removes named registry packages (pip, npm): what it writes is the
 * package manager's output from the registry the policy allowed, not code the agent wrote, so its
 * programs are not write-then-run. `npx` runs what it fetches, so it is not one of these.
 */
function installsOnly(e: Evaluation): boolean {
  return (
    e.segments.length > 0 &&
    e.segments.every((s) => {
      const install = registryInstall(s.argv);
      return install !== null && install.tool !== 'npx' && s.wrappers.length === 0;
    })
  );
}

/** `SKILLDOCK_SKILL_DIR_<NAME>`: the name upper-cased, every other character `_`. */
export const skillEnvName = (name: string) => `SKILLDOCK_SKILL_DIR_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

export function skillEnv(skills: readonly Pick<AgentSkillRef, 'name' | 'dir'>[]): Record<string, string> {
  const env: Record<string, string> = { SKILLDOCK_SKILLS_DIR: SKILLS_ROOT };
  for (const s of skills) env[skillEnvName(s.name)] = s.dir;
  return env;
}

async function writeLog(
  db: AppDb,
  actor: Actor,
  agentId: string,
  input: ExecRequestInput,
  profile: string,
  e: Evaluation,
  a: Partial<ExecAnswer> & { outcome: Outcome },
) {
  const id = newId();
  const row = {
    id,
    agentId,
    sessionId: input.sessionId ?? null,
    profile,
    // Stored and audited with secrets typed into the command masked.
    command: maskCommand(input.command),
    decision: e.decision,
    rule: e.rule,
    segment: maskCommand(e.segment),
    reason: maskCommand(e.reason),
    outcome: a.outcome,
    exitCode: a.exitCode ?? null,
    durationMs: a.durationMs ?? null,
    stdoutTruncated: a.stdoutTruncated ?? false,
    stderrTruncated: a.stderrTruncated ?? false,
    approvalId: a.approvalId ?? null,
    by: actor.label,
  };
  await db.transaction(async (tx) => {
    await tx.insert(execLog).values(row);
    await recordAudit(tx, actor, {
      action: 'agent.exec',
      targetType: 'agent',
      targetId: agentId,
      after: {
        command: row.command.slice(0, 2000),
        decision: e.decision,
        rule: e.rule,
        outcome: a.outcome,
        exitCode: row.exitCode,
        durationMs: row.durationMs,
        approvalId: row.approvalId,
        sandboxId: a.sandboxId ?? null,
      },
    });
  });
  return id;
}

export async function execForAgent(deps: ExecDeps, actor: Actor, agentId: string, input: ExecRequestInput): Promise<ExecAnswer & { status: 200 | 202 }> {
  const [policy, settings, engine] = await Promise.all([agentPolicy(deps, agentId), deps.settings(), deps.engine()]);
  if (!policy.sandboxConfigId)
    throw new AppError('invalid_state', `Agent "${agentId}" has no sandbox config: its commands have nowhere to run.`, {
      hint: 'Bind the agent to a sandbox config on its page (or PATCH sandboxConfigId), then run the command again.',
    });
  // An exec naming no timeout gets the default, never more than the longest allowed.
  const timeoutMs = input.timeoutMs ?? Math.min(settings.defaultTimeoutMs, settings.maxTimeoutMs);
  if (timeoutMs > settings.maxTimeoutMs)
    throw new AppError('validation', `timeoutMs is at most ${settings.maxTimeoutMs} ms (the exec settings' longest timeout).`, {
      issues: [{ path: 'timeoutMs', message: `at most ${settings.maxTimeoutMs}` }],
    });
  // The skill is checked before anything is judged or logged: a name outside the agent's skills is bad input.
  const skills = input.skill ? await deps.agentSkills(agentId) : null;
  const skill = input.skill ? (skills?.find((s) => s.name === input.skill) ?? null) : null;
  if (input.skill && !skill)
    throw new AppError('validation', `Agent "${agentId}" has no skill "${input.skill}": an exec names one of the agent's skills or commands.`, {
      hint: "Name a skill from the agent's skills answer (GET /api/v1/agents/{id}/skills), or leave `skill` out.",
      issues: [{ path: 'skill', message: "not one of the agent's skills" }],
    });
  const sandbox: AgentSandbox = { agentId, configId: policy.sandboxConfigId, skill: skill ? { key: skill.key, declaredEnv: skill.env } : null };
  const ctx: EvaluationContext = {
    ...(input.cwd ? { cwd: input.cwd } : {}),
    ...(await sessionContext(deps.db, agentId)),
    // Bytes on stdin are code or data the command line does not show: judged as a pipe into it.
    ...(input.stdin ? { stdin: true } : {}),
  };
  const e = engine.evaluate(input.command, policy.rules, ctx);
  const base = { decision: e.decision, rule: e.rule, segment: e.segment, reason: e.reason, segments: e.segments, profile: policy.profile };
  const idle = {
    exitCode: null,
    stdout: '',
    stderr: '',
    stdoutTruncated: false,
    stderrTruncated: false,
    timedOut: false,
    durationMs: null,
    sandboxId: null,
    writtenFiles: [],
  };
  const answer = async (outcome: Outcome, approvalId: string | null, status: 200 | 202 = 200) => {
    const logId = await writeLog(deps.db, actor, agentId, input, policy.profile, e, { outcome, approvalId });
    return { ...base, ...idle, outcome, approvalId, logId, status };
  };

  if (e.decision === 'deny') return answer('denied', input.approvalId ?? null);

  let approval: ApprovalRow | null = null;
  if (e.decision === 'approval') {
    // The approval binds the whole request, not only the command line.
    const binding: ApprovalBinding = {
      stdinSha256: stdinDigest(input.stdin),
      cwd: input.cwd ?? null,
      skill: input.skill ?? null,
      timeoutMs,
      scripts: await scriptDigests(deps, sandbox, input.cwd ?? policy.rules.workspaceRoot, e.segments),
    };
    if (input.approvalId) approval = await consumeApproval(deps, actor, input.approvalId, agentId, input.command, binding);
    else {
      const req = await requestApproval(deps, actor, {
        agentId,
        command: input.command,
        evaluation: e,
        timeoutSeconds: settings.approvalTimeoutSeconds,
        binding,
      });
      if (settings.approvalMode === '202') return answer('pending', req.id, 202);
      const final = await waitForDecision(deps, req.id, { pollMs: deps.approvalPollMs });
      if (final.state !== 'approved') return answer(final.state === 'rejected' ? 'rejected' : 'expired', req.id);
      approval = await consumeApproval(deps, actor, req.id, agentId, input.command, binding);
    }
  }

  const run = await runInSandbox(deps, actor, sandbox, {
    command: input.command,
    cwd: input.cwd,
    stdin: input.stdin,
    timeoutMs,
    outputCap: settings.outputCapBytes,
    maxConcurrent: settings.maxConcurrentPerAgent,
    env: (skills ? Promise.resolve(skills) : deps.agentSkills(agentId)).catch(() => []).then(skillEnv),
    track: { root: policy.rules.workspaceRoot, scan: policy.rules.writeThenRun === 'scan', installOnly: installsOnly(e) },
  }).catch(async (err: unknown) => {
    // Allowed but not run (no sandbox could be started, the engine failed): logged, then reported.
    await writeLog(deps.db, actor, agentId, input, policy.profile, e, { outcome: 'failed', approvalId: approval?.id ?? null });
    throw err;
  });
  const logId = await writeLog(deps.db, actor, agentId, input, policy.profile, e, { ...run, outcome: run.outcome, approvalId: approval?.id ?? null });
  return { ...base, ...run, approvalId: approval?.id ?? null, logId, status: 200 };
}
