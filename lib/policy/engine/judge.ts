// One segment against one profile: every rule that applies, in a fixed order; the segment's
// decision is its first deny, else its first approval, else allowed.

import path from 'node:path';
import { allowed, explicitlyListed } from '../rules/allowlist';
import { groupMode, matchGroups } from '../rules/deny-groups';
import { checkPaths, expandHome } from '../rules/forbidden-paths';
import { groupView } from '../rules/group-view';
import { interpreterFindings, isScriptRunner, scriptOperand } from '../rules/interpreter-args';
import { preCheck } from '../rules/prechecks';
import { commandRisk, maxRisk, segmentRisk } from '../rules/risk';
import { launcherOf } from '../shell/launchers';
import { baseName, type Segment } from '../shell/wrappers';
import type { Decision, DenyGroup, ProfileRules, SegmentDecision } from '../types';

export interface JudgeContext {
  rules: ProfileRules;
  cwd: string;
  home: string;
  writtenFiles?: ReadonlySet<string>;
  scannedClean?: ReadonlySet<string>;
  /** The exec sends a non-empty stdin: every command of the line may read it as if piped in. */
  stdin?: boolean;
  /** Variables the command line itself sets (see assignedNames). */
  assigned?: ReadonlySet<string>;
}

interface Finding {
  decision: Exclude<Decision, 'allow'>;
  rule: string;
  ruleId?: string;
  reason: string;
}

const COMMAND_NAME = /^[\x21-\x7e]{1,256}$/;
/** Builtins that change how later words are read or run code later: refused, never judged. */
// process-wide: a constant table, never written
const SHELL_STATE = new Set(['alias', 'unalias', 'trap', 'enable', 'bind', 'fc', 'complete', 'shopt']);
const DOCKER_SOCKET = /docker\.sock(?:et)?\b/;
const PROC_ENVIRON = /\/proc\/[^/]{1,32}\/environ/;

const PROC_ENV_PATH = /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?environ$/;
const PROC_FD = /^\/proc\/(?!self\/|thread-self\/)[^/]+\/(?:task\/[^/]+\/)?fd(?:\/|$)/;
/** Folders whose walk reaches /proc/<pid>/environ. */
const PROC_ANCESTOR = /^\/(?:proc(?:\/[^/]+(?:\/task(?:\/[^/]+)?)?)?)?$/;
// process-wide: a constant table, never written
const WALKERS = new Set(['rg', 'ag', 'ack', 'find', 'tar', 'zip', 'rsync', 'du']);

/** A recursive reader (grep -r, rg, find, tar …) over /, /proc or a process folder, or a link into /proc. */
function reachesAllOfProc(name: string, args: readonly string[], paths: readonly string[], cwd: string): boolean {
  if (name === 'ln') return paths.some((p) => p === '/proc' || p.startsWith('/proc/'));
  const recursive =
    WALKERS.has(name) ||
    (['grep', 'egrep', 'fgrep', 'cp', 'ls', 'zgrep'].includes(name) &&
      args.some((a) => /^-[a-zA-Z]*[rR]|^--recursive$|^-d$|^--directories=recurse$|^-a$|^--archive$/.test(a)));
  if (!recursive) return false;
  return paths.some((p) => PROC_ANCESTOR.test(p)) || PROC_ANCESTOR.test(cwd);
}

/** A later command of the same pipeline that runs what it reads. */
export function feedsCode(seg: Segment, all: readonly Segment[]): boolean {
  return all.some((o) => {
    if (o === seg || o.pipe.id !== seg.pipe.id || o.pipe.index <= seg.pipe.index) return false;
    if (o.readsStdin) return true;
    const name = o.argv.length ? baseName(o.argv[0]) : '';
    return isScriptRunner(name) && !o.argv.slice(1).some((a) => !a.startsWith('-') || a === '-');
  });
}

/** An output redirect or tee into a file (not a device, not an fd merge): a file change like cp. */
function writesFiles(seg: Segment): boolean {
  if (seg.argv.length && baseName(seg.argv[0]) === 'tee' && seg.words.slice(1).some((w) => !w.value.startsWith('-'))) return true;
  return seg.redirects.some((r) => r.body === undefined && r.target && /[>]/.test(r.op) && !/^>&$/.test(r.op) && !r.target.value.startsWith('/dev/'));
}

/** The folders a command name without a slash is looked up in (the standard PATH). */
export const STANDARD_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * The files a segment may run: each program named (wrappers included), as a path (`./x`, `/abs/x`,
 * read from the working directory) or, for a bare name, in every folder of the standard PATH; and
 * the script operand of an interpreter.
 */
export function ranFiles(seg: Segment, cwd: string, home: string): string[] {
  if (!seg.argv.length) return [];
  const resolve = (p: string) => path.posix.resolve(cwd, expandHome(p, home));
  const out: string[] = [];
  for (const exe of [...seg.wrappers.map((w) => w.split(' ')[0]), seg.argv[0]]) {
    if (exe.includes('/')) out.push(resolve(exe));
    else if (exe) out.push(...STANDARD_PATH.map((d) => `${d}/${exe}`));
  }
  const name = baseName(seg.argv[0]);
  if (isScriptRunner(name)) {
    const operand = name === 'source' || name === '.' ? seg.argv[1] : scriptOperand(name, seg.argv);
    if (operand) out.push(resolve(operand));
  }
  return out;
}

export function judgeSegment(seg: Segment, all: readonly Segment[], ctx: JudgeContext): SegmentDecision {
  const { rules } = ctx;
  const findings: Finding[] = [];
  const deny = (rule: string, reason: string, ruleId?: string) => findings.push({ decision: 'deny', rule, reason, ruleId });

  for (const issue of seg.issues) {
    const group = issue.rule.startsWith('deny_group:') ? (issue.rule.slice('deny_group:'.length) as DenyGroup) : null;
    const mode = group ? groupMode(rules, group) : 'deny';
    if (mode !== 'off') findings.push({ decision: mode, rule: issue.rule, reason: issue.reason, ruleId: issue.ruleId });
  }
  const name = seg.argv.length ? baseName(seg.argv[0]) : '';
  if (SHELL_STATE.has(name) || (name === 'hash' && seg.argv.includes('-p'))) {
    deny('shell_state', `${name} changes what later commands mean (an alias, a trap, a loaded builtin); it cannot be judged ahead.`);
  }
  const view = groupView(seg, feedsCode(seg, all), { cwd: ctx.cwd, home: ctx.home });
  if (view.strings.some((s) => DOCKER_SOCKET.test(s))) deny('always_on:docker_socket', 'The Docker socket gives root on the host; no profile allows it.');
  if (view.strings.some((s) => PROC_ENVIRON.test(s)) || view.paths.some((p) => PROC_ENV_PATH.test(p)) || reachesAllOfProc(name, view.args, view.paths, ctx.cwd))
    deny('always_on:proc_environ', "Another process's environment holds the sandbox's credentials; no profile allows it (in any spelling of the path).");
  if (view.paths.some((p) => PROC_FD.test(p)))
    deny('always_on:proc_fd', "Another process's open files (its terminal, its pipes) are not the agent's to read or write; no profile allows it.");

  const groups = matchGroups(view, rules);
  for (const m of groups) findings.push({ decision: m.mode, rule: `deny_group:${m.group}`, ruleId: m.ruleId, reason: `${m.ruleId}: ${m.pattern}.` });

  const first = seg.words[0];
  if (first && (first.dynamic || first.expands || !COMMAND_NAME.test(first.value))) {
    deny('dynamic_command', `The command name ${JSON.stringify(first.text)} is only known at run time or is not plain ASCII; write the command itself.`);
  }

  if (rules.blockInterpreterArgs) {
    const packageGroup = groups.some((g) => g.group === 'package_install');
    for (const f of interpreterFindings(seg, !!ctx.stdin)) {
      if (f.packageVerb && packageGroup) continue;
      if (f.inline && rules.inlineCode === 'allow') continue;
      if (f.inline && rules.inlineCode === 'approval') findings.push({ decision: 'approval', rule: 'inline_code', ruleId: f.ruleId, reason: f.reason });
      else deny('interpreter_args', `${f.reason} Put the code in a script file and run the file.`, f.ruleId);
    }
  }

  const list = { entries: rules.allowedCommands, home: ctx.home };
  const launcher = rules.blockInterpreterArgs ? launcherOf(seg.argv) : null;
  if (launcher && !explicitlyListed(seg.argv[0], list))
    deny(
      'launcher',
      `${launcher} runs another command the engine cannot read from its arguments; run that command directly (or list ${baseName(seg.argv[0])} by name in allowedCommands).`,
    );
  const risk = writesFiles(seg) ? maxRisk(segmentRisk(seg.argv, seg.wrappers), 'medium') : segmentRisk(seg.argv, seg.wrappers);
  if (risk === 'high' && rules.blockHighRisk) {
    const names = [...seg.wrappers.map((w) => w.split(' ')[0]), ...(seg.argv.length ? [seg.argv[0]] : [])];
    const culprit = names.find((n) => commandRisk([n]) === 'high' && !explicitlyListed(n, list));
    if (culprit) deny('high_risk', `${baseName(culprit)} is a high-risk command; it runs only when the profile lists it by name.`);
    else if (!names.some((n) => commandRisk([n]) === 'high')) deny('high_risk', 'The command is a known destructive form.');
  }
  if (risk === 'medium' && rules.approvalForMedium)
    findings.push({ decision: 'approval', rule: 'medium_risk', reason: `${seg.argv.slice(0, 2).join(' ')} changes files or a repository.` });

  if (seg.argv.length) {
    for (const n of [...seg.wrappers.map((w) => w.split(' ')[0]), seg.argv[0]]) {
      if (!allowed(n, list)) {
        deny('allowlist', `${n} is not in the profile's allowed commands.`);
        break;
      }
    }
  }

  if (rules.preChecks) {
    const p = preCheck(seg, { cwd: ctx.cwd, home: ctx.home, workspaceRoot: rules.workspaceRoot }, ctx.assigned);
    if (p) deny(p.rule, p.reason);
  }

  const targets = seg.redirects.filter((r) => r.target && r.body === undefined && !/^[<>]&$/.test(r.op)).map((r) => r.target!);
  const path = checkPaths(seg.words.slice(1), targets, { ...rules, cwd: ctx.cwd, home: ctx.home });
  if (path) deny(path.rule, path.reason);

  const written = ctx.writtenFiles;
  const script = rules.writeThenRun === 'off' || !written?.size ? undefined : ranFiles(seg, ctx.cwd, ctx.home).find((f) => written.has(f));
  if (script) {
    if (rules.writeThenRun === 'approval')
      findings.push({
        decision: 'approval',
        rule: 'write_then_run',
        reason: `${script} was written by an earlier command of this agent; running it needs an admin's approval.`,
      });
    else if (!ctx.scannedClean?.has(script))
      deny('write_then_run', `${script} was written by an earlier command of this agent and did not pass the skill scanner.`);
  }

  const decided = findings.find((f) => f.decision === 'deny') ?? findings.find((f) => f.decision === 'approval');
  return {
    text: seg.text,
    argv: seg.argv,
    assignments: seg.assignments.map((a) => a.name),
    wrappers: seg.wrappers,
    risk,
    decision: decided?.decision ?? 'allow',
    rule: decided?.rule ?? 'allowed',
    ...(decided?.ruleId ? { ruleId: decided.ruleId } : {}),
    reason: decided?.reason ?? 'No rule of the profile refuses this command.',
  };
}
