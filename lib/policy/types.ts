// The exec policy's public shapes: a risk profile, and the decision the engine returns for one
// command. The engine (parse → segments → rules) produces these; the service, the API and the
// console consume them.
import { z } from 'zod';

export const DENY_GROUPS = [
  'destructive_ops',
  'data_exfiltration',
  'reverse_shell',
  'code_injection',
  'privilege_escalation',
  'dangerous_paths',
  'env_injection',
  'container_escape',
  'crypto_mining',
  'filter_bypass',
  'network_recon',
  'package_install',
  'persistence',
  'process_control',
  'env_dump',
] as const;
export type DenyGroup = (typeof DENY_GROUPS)[number];

/** What a deny group does when it matches: refuse, ask an admin, or nothing. */
export const groupModeSchema = z.enum(['deny', 'approval', 'off']);
export type GroupMode = z.infer<typeof groupModeSchema>;

const commandEntry = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .regex(/^[^\s\0]+$/, 'one command name or path, no spaces');
const pathEntry = z
  .string()
  .trim()
  .min(1)
  .max(512)
  .regex(/^(~|\/)[^\0]*$/, 'an absolute path or one under ~');

/** The settings a profile decides with. Every field has a default, so `{}` is `balanced`. */
export const profileRulesSchema = z.object({
  /** `*` allows any command (high-risk ones stay blocked unless listed); a non-empty list is strict. */
  allowedCommands: z.array(commandEntry).max(1000).default(['*']),
  /** High-risk commands are refused unless explicitly named in allowedCommands. */
  blockHighRisk: z.boolean().default(true),
  /** Approval for medium-risk commands (mutating git/npm verbs, named package installs, touch, mkdir, mv, cp, ln, writes by redirect or tee). */
  approvalForMedium: z.boolean().default(false),
  /** Command substitution, unknown variables, `&`, and redirects or tee beyond ordinary files (writes only in the workspace, /tmp, /var/tmp and the home, never start-up, config or credential files; reads from no device). */
  preChecks: z.boolean().default(true),
  /** python -c/-m, node -e/-p, find -exec, git -c/config/alias, pip install, npm exec/install, cargo install, and launchers (strace, gdb, parallel…) not named in allowedCommands. */
  blockInterpreterArgs: z.boolean().default(true),
  /**
   * Code written on the command line (`python3 -c '…'`, `node -e`, `perl -e`, `python3 -m mod`):
   * the engine reads it and the deny groups judge it, so `allow` lets it run; `approval` asks, `deny`
   * refuses. Code the engine cannot read (a program piped in, on the exec's stdin, or from
   * /dev/stdin) is refused whenever blockInterpreterArgs is on.
   */
  inlineCode: z.enum(['allow', 'approval', 'deny']).default('allow'),
  /** Per group; a group not named takes its built-in default. */
  denyGroups: z.partialRecord(z.enum(DENY_GROUPS), groupModeSchema).default({}),
  forbiddenPaths: z.array(pathEntry).max(200).default([]),
  /** Path arguments must stay under the workspace root. */
  workspaceOnly: z.boolean().default(false),
  workspaceRoot: z
    .string()
    .regex(/^\/[^\0]*$/)
    .max(512)
    .default('/workspace'),
  /** A script written earlier in the same agent session runs only after approval (or a clean scan). */
  writeThenRun: z.enum(['approval', 'scan', 'off']).default('approval'),
});
export type ProfileRules = z.infer<typeof profileRulesSchema>;

export const PRESETS = ['locked_down', 'balanced', 'yolo'] as const;
export type PresetName = (typeof PRESETS)[number];

export type Decision = 'allow' | 'deny' | 'approval';
export type Risk = 'low' | 'medium' | 'high';

/** One simple command after unwrapping: what was judged and how. */
export interface SegmentDecision {
  /** The segment as written (a slice of the normalised command). */
  text: string;
  /** Resolved words: quoting removed, wrappers stripped. argv[0] is the command name judged. */
  argv: string[];
  /** Leading VAR=value assignments, names only. */
  assignments: string[];
  /** Wrappers peeled off to reach argv, outermost first (e.g. ['env', 'sh -c']). */
  wrappers: string[];
  risk: Risk;
  decision: Decision;
  /** The rule that decided, e.g. `allowlist`, `high_risk`, `deny_group:privilege_escalation`, `interpreter_args`, `pre_check:redirect`, `unparseable`, `allowed`. */
  rule: string;
  /** The id of the deciding rule inside its group or table, e.g. `privilege_escalation.sudo`, `python.c`. */
  ruleId?: string;
  reason: string;
}

/** A node of the parse tree as the tester shows it. */
export interface TreeNode {
  type: string;
  text: string;
  children: TreeNode[];
}

export interface Evaluation {
  decision: Decision;
  /** The deciding rule (the first deny, else the first approval, else `allowed`). */
  rule: string;
  /** The text of the deciding segment ('' when the whole command was refused, e.g. unparseable). */
  segment: string;
  /** The id of the deciding rule inside its group or table, when it has one. */
  ruleId?: string;
  reason: string;
  segments: SegmentDecision[];
}

/** What the caller knows about the session the command runs in. */
export interface EvaluationContext {
  cwd?: string;
  home?: string;
  /** Absolute paths of files the agent wrote earlier in this session (write-then-run). */
  writtenFiles?: ReadonlySet<string>;
  /** Files of writtenFiles whose content passed the skill scanner. */
  scannedClean?: ReadonlySet<string>;
  /**
   * The exec sends a non-empty stdin. It is judged as a pipe into the command line: a shell or an
   * interpreter without a script (`python3`, `sh`, `perl`, `awk -f -`) runs code the engine cannot read.
   */
  stdin?: boolean;
}
