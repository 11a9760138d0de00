// The exec policy engine: normalise, parse with tree-sitter-bash, split into simple commands,
// peel wrappers (parsing `sh -c` strings again), judge every segment. Anything the engine does not
// understand is refused. `createPolicyEngine()` loads the grammar once; `evaluate` is synchronous.
import path from 'node:path';
import { groupMode } from '../rules/deny-groups';
import { TEXT_RULES } from '../rules/deny-rules';
import { assignedNames } from '../rules/prechecks';
import { normalizeCommand } from '../shell/normalize';
import { createShellParser, firstError, MAX_COMMAND_BYTES, type ShellParser, uncoveredText } from '../shell/parser';
import { extractCommands } from '../shell/segments';
import { toTreeNode } from '../shell/tree';
import { createWalk } from '../shell/walk';
import { type Reparse, type Segment, type SegmentIssue, unwrap } from '../shell/wrappers';
import type { Evaluation, EvaluationContext, ProfileRules, SegmentDecision, TreeNode } from '../types';
import { judgeSegment } from './judge';

/** More simple commands than this in one command line is refused, never judged partly. */
export const MAX_SEGMENTS = 100;
const DEFAULT_HOME = '/root';

export interface PolicyEngine {
  evaluate(command: string, rules: ProfileRules, ctx?: EvaluationContext): Evaluation;
  tree(command: string): TreeNode;
}

const refuse = (rule: string, reason: string, ruleId?: string): Evaluation => ({
  decision: 'deny',
  rule,
  segment: '',
  reason,
  ...(ruleId ? { ruleId } : {}),
  segments: [],
});

type Split = { ok: true; segments: Segment[] } | { ok: false; rule: string; reason: string };

function split(parser: ShellParser, text: string, home: string, cwd: string): Split {
  let pipeBase = 0;
  const parseScript = (script: string, origin: string): { commands: ReturnType<typeof extractCommands>['commands']; issues: SegmentIssue[] } => {
    const n = normalizeCommand(script);
    if (!n.ok) return { commands: [], issues: [{ rule: n.rule, reason: n.reason }] };
    const p = parser.parse(n.text);
    if (!p.ok) return { commands: [], issues: [{ rule: p.rule, reason: p.reason }] };
    try {
      const err = firstError(p.tree.rootNode);
      if (err)
        return {
          commands: [],
          issues: [{ rule: 'unparseable', reason: `Syntax error near ${JSON.stringify(err.text.slice(0, 40))} (offset ${err.startIndex}).` }],
        };
      const lost = uncoveredText(p.tree.rootNode, n.text);
      if (lost !== null)
        return {
          commands: [],
          issues: [
            { rule: 'unparseable', reason: `The parser skipped ${JSON.stringify(lost.slice(0, 40))}; the command is refused rather than judged without it.` },
          ],
        };
      const ex = extractCommands(p.tree.rootNode, { home, cwd, origin, pipeBase });
      pipeBase = ex.nextPipe;
      return { commands: ex.commands, issues: ex.issues };
    } finally {
      p.tree.delete();
    }
  };
  const reparse: Reparse = (script, origin) => parseScript(script, origin);
  const top = parseScript(text, 'the command');
  if (top.issues.length) return { ok: false, ...top.issues[0] };
  const segments: Segment[] = [];
  for (const cmd of top.commands) {
    segments.push(...unwrap(cmd, reparse));
    if (segments.length > MAX_SEGMENTS) return { ok: false, rule: 'too_deep', reason: `More than ${MAX_SEGMENTS} commands in one command line.` };
  }
  return { ok: true, segments };
}

function aggregate(segments: SegmentDecision[]): Evaluation {
  const decided = segments.find((s) => s.decision === 'deny') ?? segments.find((s) => s.decision === 'approval');
  if (!decided) return { decision: 'allow', rule: 'allowed', segment: '', reason: 'Every command is allowed by the profile.', segments };
  return {
    decision: decided.decision,
    rule: decided.rule,
    segment: decided.text,
    ...(decided.ruleId ? { ruleId: decided.ruleId } : {}),
    reason: decided.reason,
    segments,
  };
}

export async function createPolicyEngine(): Promise<PolicyEngine> {
  const parser = await createShellParser();
  return {
    evaluate(command, rules, ctx = {}) {
      if (Buffer.byteLength(command, 'utf8') > MAX_COMMAND_BYTES) return refuse('too_long', `The command is longer than ${MAX_COMMAND_BYTES / 1024} KiB.`);
      const n = normalizeCommand(command);
      if (!n.ok) return refuse(n.rule, n.reason);
      for (const t of TEXT_RULES) {
        const mode = groupMode(rules, t.group);
        if (mode !== 'off' && t.re.test(n.text)) {
          return { ...refuse(`deny_group:${t.group}`, `${t.id}: the command contains a form this group refuses.`, t.id), decision: mode };
        }
      }
      // A relative cwd or home is read against the workspace, never against this process's folder.
      const home = path.posix.resolve(rules.workspaceRoot, ctx.home ?? DEFAULT_HOME);
      const cwd = path.posix.resolve(rules.workspaceRoot, ctx.cwd ?? '.');
      const s = split(parser, n.text, home, cwd);
      if (!s.ok) return refuse(s.rule, s.reason);
      if (!s.segments.length) return { decision: 'allow', rule: 'allowed', segment: '', reason: 'The command is empty.', segments: [] };
      const walk = createWalk(cwd, home, ctx.writtenFiles);
      const assigned = assignedNames(s.segments);
      const judged = s.segments.map((seg) => {
        const d = judgeSegment(seg, s.segments, {
          rules,
          cwd: walk.cwd,
          home,
          writtenFiles: walk.written,
          scannedClean: ctx.scannedClean,
          stdin: ctx.stdin,
          assigned,
        });
        walk.after(seg);
        return d;
      });
      return aggregate(judged);
    },
    tree(command) {
      if (Buffer.byteLength(command, 'utf8') > MAX_COMMAND_BYTES)
        return { type: 'too_long', text: `longer than ${MAX_COMMAND_BYTES / 1024} KiB`, children: [] };
      const n = normalizeCommand(command);
      if (!n.ok) return { type: n.rule, text: n.reason, children: [] };
      const p = parser.parse(n.text);
      if (!p.ok) return { type: p.rule, text: p.reason, children: [] };
      try {
        return toTreeNode(p.tree.rootNode);
      } finally {
        p.tree.delete();
      }
    },
  };
}
