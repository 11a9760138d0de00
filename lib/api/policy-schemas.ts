/**
 * The exec policy's request and response shapes: profiles, the tester, replay, approvals, the exec
 * log and the gateway's exec. Schema-only (zod and the policy types): the browser imports it, the
 * server actions, the REST routes and the OpenAPI document parse with the same schemas.
 */
import { z } from 'zod';
import { agentId } from '../agents/schema';
import { policyOverridesSchema, profileName, profileRef, profileRulesInput } from '../policy/profiles/schema';
import { DENY_GROUPS, groupModeSchema, profileRulesSchema, type TreeNode } from '../policy/types';

export {
  type PolicyOverrides,
  PROFILE_NAME,
  type ProfileRef,
  policyOverridesSchema,
  profileName,
  profileRef,
  profileRulesInput,
} from '../policy/profiles/schema';

/** The gateway exec's command (the engine refuses longer ones as too_long). */
export const MAX_EXEC_COMMAND = 64 * 1024;
/** A command the tester or a replay decides: UTF-8 bytes. */
export const MAX_COMMAND = 16 * 1024;
export const MAX_REPLAY = 500;
/** All commands of one replay together: UTF-8 bytes. */
export const MAX_REPLAY_BYTES = 1024 * 1024;

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

const time = z.string().describe('ISO 8601 time');
const revision = z.number().int().min(0).describe('The revision this edit starts from (409 conflict when it is stale)');

export const profileParams = z.strictObject({ name: profileName });

/** Partial rules an agent layers over its profile (e.g. one deny group turned off). */
export const createProfileInput = z.strictObject({
  name: profileName,
  description: z.string().max(2000).optional(),
  rules: profileRulesInput,
});
export type CreateProfileInput = z.infer<typeof createProfileInput>;

export const patchProfileInput = z.strictObject({
  revision,
  description: z.string().max(2000).optional(),
  rules: profileRulesInput.optional().describe('The whole rule set (absent keeps the stored one)'),
});
export type PatchProfileInput = z.infer<typeof patchProfileInput>;

const command = z
  .string()
  .min(1, 'Enter a command.')
  .max(MAX_EXEC_COMMAND, `A command is at most ${MAX_EXEC_COMMAND / 1024} KiB.`);
const testedCommand = z
  .string()
  .min(1, 'Enter a command.')
  .max(MAX_COMMAND, `A command to test is at most ${MAX_COMMAND / 1024} KiB.`)
  .refine((c) => utf8Bytes(c) <= MAX_COMMAND, { message: `A command to test is at most ${MAX_COMMAND / 1024} KiB (UTF-8).` });

export const evaluateInput = z.strictObject({
  command: testedCommand,
  profile: profileRef.optional().describe('A profile name or inline rules; absent: balanced'),
  agentId: agentId.optional().describe("Decide with this agent's effective rules (its profile and overrides) instead"),
  cwd: z
    .string()
    .regex(/^\/[^\0]*$/)
    .max(512)
    .optional(),
  tree: z.boolean().optional().describe('Also return the parse tree'),
});
export type EvaluateInput = z.infer<typeof evaluateInput>;

export const replayInput = z
  .strictObject({
    commands: z
      .array(testedCommand)
      .max(MAX_REPLAY, `At most ${MAX_REPLAY} commands.`)
      .refine((cs) => cs.reduce((n, c) => n + utf8Bytes(c), 0) <= MAX_REPLAY_BYTES, {
        message: `At most ${MAX_REPLAY_BYTES / 1024 / 1024} MiB of commands in one replay.`,
      })
      .optional()
      .describe(`A pasted list: at most ${MAX_REPLAY} commands of at most ${MAX_COMMAND / 1024} KiB each, ${MAX_REPLAY_BYTES / 1024 / 1024} MiB in all`),
    agentId: agentId.optional().describe('Replay the last `limit` commands of this agent’s exec log (when commands is absent)'),
    limit: z.number().int().min(1).max(MAX_REPLAY).default(200),
    current: profileRef.optional().describe("Absent: the agent's effective rules, or balanced"),
    proposed: profileRef,
  })
  .refine((v) => v.commands !== undefined || v.agentId !== undefined, {
    message: 'Send commands, or an agentId whose exec log to replay.',
    path: ['commands'],
  });
export type ReplayInput = z.infer<typeof replayInput>;

export const execInput = z.strictObject({
  command,
  cwd: z
    .string()
    .regex(/^\/[^\0]*$/, 'An absolute path.')
    .max(512)
    .optional(),
  timeoutMs: z.number().int().min(100).max(3_600_000).optional().describe('Absent: the policy settings’ default'),
  stdin: z
    .string()
    .max(1024 * 1024)
    .optional(),
  sessionId: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'A session id is 1–128 letters, digits, "_", ".", ":" or "-".')
    .optional()
    .describe('Files written by one exec of a session are judged as scripts on the next (write-then-run)'),
  skill: z
    .string()
    .min(1)
    .max(128)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: 'A skill name cannot hold control characters.' })
    .optional()
    .describe(
      "The skill this command runs for (a name from the agent's skills or commands): the exec then gets that skill's variables — config < workspace skill < the agent's sandbox variables < the agent's skill variables",
    ),
  approvalId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe(
      'Run a request an admin approved: the same agent, command, stdin, cwd and timeout (and unchanged scripts); any difference is a 400 naming what changed',
    ),
});
export type ExecInput = z.infer<typeof execInput>;

export const approvalParams = z.strictObject({ id: z.string().min(1).max(64) });
export const agentApprovalParams = z.strictObject({ id: agentId, approvalId: z.string().min(1).max(64) });
export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'expired'] as const;
export const approvalListQuery = z.strictObject({
  state: z.enum(APPROVAL_STATES).optional(),
  agentId: agentId.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const decideApprovalInput = z.strictObject({ note: z.string().max(500).optional() });

export const execLogQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  decision: z.enum(['allow', 'deny', 'approval']).optional(),
  before: z.string().datetime().optional().describe('Rows older than this time (paging)'),
});

// ---- responses

const decision = z.enum(['allow', 'deny', 'approval']);
export const segmentOut = z.object({
  text: z.string(),
  argv: z.array(z.string()),
  assignments: z.array(z.string()),
  wrappers: z.array(z.string()),
  risk: z.enum(['low', 'medium', 'high']),
  decision,
  rule: z.string(),
  reason: z.string(),
});

/** A parse-tree node; `children` are nodes of the same shape (not spelled out: OpenAPI has no recursion here). */
const treeNodeSchema = z.object({ type: z.string(), text: z.string(), children: z.array(z.unknown()).describe('Nodes of this same shape') });
export const treeOut = treeNodeSchema as unknown as z.ZodType<TreeNode, TreeNode>;

export const evaluationOut = z.object({
  decision,
  rule: z.string().describe('e.g. allowed, allowlist, high_risk, deny_group:privilege_escalation, unparseable, write_then_run'),
  segment: z.string(),
  reason: z.string(),
  segments: z.array(segmentOut),
  profile: z.string().describe('The profile decided with (`inline` for inline rules)'),
  tree: treeOut.optional(),
});

export const profileOut = z.object({
  name: z.string(),
  description: z.string(),
  rules: profileRulesSchema,
  builtin: z.boolean().describe('A preset: read-only'),
  revision: z.number().int(),
  usedBy: z.array(z.string()).describe('Agents deciding with this profile'),
  createdAt: time.nullable(),
  createdBy: z.string().nullable(),
  updatedAt: time.nullable(),
  updatedBy: z.string().nullable(),
});
export const profileListOut = z.object({ items: z.array(profileOut), defaultProfile: z.string() });

export const denyGroupOut = z.object({
  name: z.enum(DENY_GROUPS),
  description: z.string(),
  default: groupModeSchema,
  patterns: z.array(z.object({ id: z.string(), pattern: z.string() })).describe('The rules that make up the group'),
});
export const denyGroupListOut = z.object({ items: z.array(denyGroupOut) });

const verdict = z.object({ decision, rule: z.string(), segment: z.string(), reason: z.string() });
export const replayOut = z.object({
  items: z.array(z.object({ command: z.string(), before: verdict, after: verdict, changed: z.boolean() })),
  counts: z.object({
    total: z.number().int(),
    changed: z.number().int(),
    newlyPassing: z.number().int().describe('Not allowed before, allowed after'),
    newlyFailing: z.number().int().describe('Allowed before, denied or needing approval after'),
  }),
  current: z.string(),
  proposed: z.string(),
});

export const approvalOut = z.object({
  id: z.string(),
  agentId: z.string(),
  command: z.string(),
  segment: z.string(),
  rule: z.string(),
  reason: z.string(),
  state: z.enum(APPROVAL_STATES),
  requestedAt: time,
  requestedBy: z.string(),
  expiresAt: time,
  decidedAt: time.nullable(),
  decidedBy: z.string().nullable(),
  note: z.string().nullable(),
  usedAt: time.nullable().describe('When the approved command ran (an approval runs once)'),
  stdinSha256: z.string().nullable().describe('sha256 (hex) of the stdin the request carries; null: no stdin'),
  cwd: z.string().nullable().describe('The working directory it runs in; null: the sandbox default'),
  skill: z.string().nullable().describe('The skill the exec runs for (its variables go into the run); null: none'),
  timeoutMs: z.number().int().nullable().describe('The timeout it runs with'),
  scripts: z
    .array(z.object({ path: z.string(), sha256: z.string() }))
    .nullable()
    .describe('The content digest of every script the command runs, when known; null: not known'),
});
export const approvalListOut = z.object({ items: z.array(approvalOut) });

export const execLogOut = z.object({
  id: z.string(),
  agentId: z.string(),
  sessionId: z.string().nullable(),
  profile: z.string(),
  command: z
    .string()
    .nullable()
    .describe('The command, secrets typed into it masked as ***; null (hidden) unless the caller holds policy.commands or is the agent'),
  decision,
  rule: z.string(),
  segment: z.string().nullable().describe('The deciding part of the command; hidden (null) like the command'),
  reason: z.string(),
  outcome: z.enum(['ran', 'denied', 'pending', 'rejected', 'expired', 'failed']),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  stdoutTruncated: z.boolean(),
  stderrTruncated: z.boolean(),
  approvalId: z.string().nullable(),
  approvalState: z
    .enum(APPROVAL_STATES)
    .nullable()
    .describe('Where the approval request of this exec ended (approved, rejected, expired) or pending; null: none was asked'),
  at: time,
  by: z.string(),
});
export const execLogListOut = z.object({ items: z.array(execLogOut) });

export const execOut = z.object({
  decision,
  rule: z.string(),
  segment: z.string(),
  reason: z.string(),
  segments: z.array(segmentOut),
  profile: z.string(),
  outcome: z
    .enum(['ran', 'denied', 'pending', 'rejected', 'expired', 'failed'])
    .describe('ran: the command ran (see exitCode); failed: it could not be started'),
  approvalId: z.string().nullable().describe('The approval request (pending: poll GET /api/v1/agents/{id}/exec/{approvalId})'),
  exitCode: z.number().int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  stdoutTruncated: z.boolean(),
  stderrTruncated: z.boolean(),
  timedOut: z.boolean(),
  durationMs: z.number().int().nullable(),
  sandboxId: z.string().nullable(),
  writtenFiles: z.array(z.string()).describe('Files in the workspace this exec created or changed (with a sessionId)'),
  logId: z.string(),
});
export type ExecOut = z.infer<typeof execOut>;

export const agentPolicyOut = z.object({
  agentId: z.string(),
  profile: z.string(),
  overrides: policyOverridesSchema.nullable(),
  rules: profileRulesSchema,
});
