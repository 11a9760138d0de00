// Peels the commands that only run another command (`env`, `timeout 5`, `nice`, `xargs`, `sudo`,
// `busybox`, `sh -c '…'`, `eval`) so the command that really runs is the one judged. Strings that
// a shell will run are parsed again; nesting deeper than MAX_DEPTH is refused.

import { launcherStep } from './launchers';
import type { Redirect, SimpleCommand } from './segments';
import { literalWord, type Word } from './words';
import { type OptionSpec, PRIVILEGE_WRAPPERS, parseOptions, SHELL_SPEC, SHELLS, WRAPPERS } from './wrapper-specs';

export const MAX_DEPTH = 4;
const MAX_WRAPPERS = 16;

export interface SegmentIssue {
  rule: string;
  ruleId?: string;
  reason: string;
}

/** One command as it will run, after the wrappers around it are peeled off. */
export interface Segment {
  text: string;
  argv: string[];
  words: Word[];
  /** Every word as written, wrappers included (pre-checks look at all of them). */
  allWords: Word[];
  assignments: { name: string; value: Word | null }[];
  redirects: Redirect[];
  background: boolean;
  pipe: { id: number; index: number };
  origin: string;
  substitution: boolean;
  /** Wrappers peeled off, outermost first (`env`, `sudo`, `sh -c`). */
  wrappers: string[];
  /** A shell or interpreter with no script and no `-c`: it runs what arrives on stdin. */
  readsStdin: boolean;
  issues: SegmentIssue[];
}

/** Parses a script again (a `sh -c` string, a heredoc fed to a shell); null when it cannot be parsed. */
export type Reparse = (script: string, origin: string, depth: number) => { commands: SimpleCommand[]; issues: SegmentIssue[] };

export const baseName = (s: string) => {
  const i = s.lastIndexOf('/');
  return (i >= 0 ? s.slice(i + 1) : s).toLowerCase();
};

function fromCommand(cmd: SimpleCommand): Segment {
  return {
    text: cmd.text,
    argv: cmd.words.map((w) => w.value),
    words: cmd.words,
    allWords: cmd.words,
    assignments: [...cmd.assignments],
    redirects: cmd.redirects,
    background: cmd.background,
    pipe: cmd.pipe,
    origin: cmd.origin,
    substitution: cmd.substitution,
    wrappers: [],
    readsStdin: false,
    issues: [],
  };
}

const drop = (seg: Segment, n: number, wrapper: string): Segment => ({
  ...seg,
  argv: seg.argv.slice(n),
  words: seg.words.slice(n),
  wrappers: [...seg.wrappers, wrapper],
});

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]{0,127})=/;

/** Turns one simple command into the segments that will run (usually one; `sh -c 'a; b'` gives two). */
export function unwrap(cmd: SimpleCommand, reparse: Reparse, depth = 0): Segment[] {
  return peel(fromCommand(cmd), reparse, depth);
}

function peel(seg: Segment, reparse: Reparse, depth: number): Segment[] {
  const out: Segment[] = [];
  let cur = seg;
  for (let guard = 0; guard <= MAX_WRAPPERS; guard++) {
    if (!cur.argv.length) break;
    const name = baseName(cur.argv[0]);
    if (cur.words[0]?.dynamic || cur.words[0]?.expands) break;
    const fail = (reason: string, rule = 'wrapper_options', ruleId?: string) => {
      cur.issues.push({ rule, ruleId, reason: `${name}: ${reason}.` });
      return [...out, cur];
    };
    if (name === 'busybox' || name === 'toybox') {
      if (cur.argv.length < 2 || cur.argv[1].startsWith('-')) break;
      cur = drop(cur, 1, name);
      continue;
    }
    if (name === 'command' && cur.argv.slice(1).some((a) => a === '-v' || a === '-V')) break;
    if (SHELLS.has(name)) return [...out, ...shell(cur, name, reparse, depth)];
    if (name === 'eval') {
      if (cur.words.slice(1).some((w) => w.dynamic))
        return fail('the string to evaluate is only known at run time', 'deny_group:code_injection', 'code_injection.eval_dynamic');
      return [...out, ...again(cur, cur.argv.slice(1).join(' '), 'eval', reparse, depth)];
    }
    if (name === 'find') return [...out, ...findExec(cur, reparse, depth)];
    const step = launcherStep(name, cur.argv);
    if (step) {
      if (step.kind === 'fail') return fail(step.reason, step.rule);
      if (step.kind === 'none') break;
      if (step.kind === 'shell') return [...out, { ...drop(cur, cur.argv.length, name), argv: ['sh'], words: [literalWord('sh')], readsStdin: true }];
      if (step.kind === 'script') {
        if (cur.words.slice(step.from, step.to).some((w) => w.dynamic))
          return fail('the command string is only known at run time', 'deny_group:code_injection', 'code_injection.dynamic_script');
        return [...out, ...again(cur, step.text, name === 'watch' ? 'watch' : `${name} -c`, reparse, depth)];
      }
      // `coproc cmd` runs cmd in the background.
      cur = { ...drop(cur, step.at, name), background: cur.background || !!step.background };
      continue;
    }
    const spec: OptionSpec | undefined = WRAPPERS[name];
    if (!spec) break;
    const opts = parseOptions(cur.argv, 1, spec);
    if (!opts.ok) return fail(opts.reason);
    let rest = opts.rest;
    if (name === 'env' || name === 'cross-env') {
      // `env A=1 B=2 cmd`: the assignments are the command's environment.
      const assignments = [...cur.assignments];
      while (rest < cur.argv.length && (cur.argv[rest] === '-' || ASSIGNMENT.test(cur.argv[rest]))) {
        const a = cur.argv[rest];
        if (a !== '-') assignments.push({ name: a.slice(0, a.indexOf('=')), value: literalWord(a.slice(a.indexOf('=') + 1)) });
        rest++;
      }
      cur = { ...cur, assignments };
    }
    if (name === 'timeout') rest++;
    if (name === 'time' || name === 'command' || name === 'builtin' || name === 'exec' || name === 'nohup' || name === 'xargs') {
      // Each of these may run nothing at all (`exec 3>f`, `xargs` runs echo); that is judged as is.
      if (rest >= cur.argv.length && name !== 'xargs') break;
    }
    if (rest >= cur.argv.length) {
      if (name === 'xargs') return [...out, { ...drop(cur, cur.argv.length, 'xargs'), argv: ['echo'], words: [literalWord('echo')] }];
      if (PRIVILEGE_WRAPPERS.has(name)) return [...out, { ...drop(cur, cur.argv.length, name), argv: ['sh'], words: [literalWord('sh')] }];
      break;
    }
    cur = drop(cur, rest, name);
  }
  if (cur.wrappers.length > MAX_WRAPPERS) cur.issues.push({ rule: 'too_deep', reason: 'Too many wrapper commands around one command.' });
  return [...out, cur];
}

/** `sh -c 'script'` → the script's commands; `sh script.sh` stays a script run; `sh` alone reads stdin. */
function shell(seg: Segment, name: string, reparse: Reparse, depth: number): Segment[] {
  const opts = parseOptions(seg.argv, 1, SHELL_SPEC);
  if (!opts.ok) return [{ ...seg, issues: [...seg.issues, { rule: 'wrapper_options', reason: `${name}: ${opts.reason}.` }] }];
  if (opts.seen.includes('--rcfile') || opts.seen.includes('--init-file')) {
    const issue = {
      rule: 'deny_group:env_injection',
      ruleId: 'env_injection.shell_rcfile',
      reason: `${name} --rcfile runs a start-up file before the command.`,
    };
    return [{ ...seg, issues: [...seg.issues, issue] }];
  }
  const hasC = opts.seen.includes('-c');
  if (hasC) {
    const w = seg.words[opts.rest];
    if (!w) return [{ ...seg, issues: [...seg.issues, { rule: 'unparseable', reason: `${name} -c without a command string.` }] }];
    if (w.dynamic) {
      return [
        {
          ...seg,
          issues: [
            ...seg.issues,
            { rule: 'deny_group:code_injection', ruleId: 'code_injection.dynamic_script', reason: `${name} -c runs a string only known at run time.` },
          ],
        },
      ];
    }
    return again(seg, w.value, `${name} -c`, reparse, depth);
  }
  if (opts.rest < seg.argv.length && !opts.seen.includes('-s')) return [seg];
  // No script operand: the shell runs its stdin — a heredoc or here-string is parsed as the script.
  const fed = seg.redirects.find((r) => r.body !== undefined && (r.op === '<<' || r.op === '<<-' || r.op === '<<<'));
  if (fed) {
    if (fed.op === '<<<' && fed.target?.dynamic) {
      return [
        {
          ...seg,
          issues: [
            ...seg.issues,
            { rule: 'deny_group:code_injection', ruleId: 'code_injection.dynamic_script', reason: `${name} <<< runs a string only known at run time.` },
          ],
        },
      ];
    }
    const rest = { ...seg, redirects: seg.redirects.filter((r) => r !== fed) };
    return again(rest, fed.body ?? '', `${name} <<${fed.op === '<<<' ? '<' : ''}`, reparse, depth);
  }
  return [{ ...seg, readsStdin: true }];
}

/** The commands of a string a shell will run, each still peeled; the outer context carries over. */
function again(seg: Segment, script: string, wrapper: string, reparse: Reparse, depth: number): Segment[] {
  if (depth + 1 > MAX_DEPTH) return [{ ...seg, issues: [...seg.issues, { rule: 'too_deep', reason: `Commands nested more than ${MAX_DEPTH} levels deep.` }] }];
  const parsed = reparse(script, `${wrapper} in ${seg.origin}`, depth + 1);
  const outer = { ...seg, argv: [], words: [] };
  const segs: Segment[] = parsed.issues.length
    ? [{ ...outer, text: script, issues: [...seg.issues, ...parsed.issues], wrappers: [...seg.wrappers, wrapper] }]
    : [];
  for (const c of parsed.commands) {
    for (const inner of peel(fromCommand(c), reparse, depth + 1)) {
      segs.push({
        ...inner,
        assignments: [...seg.assignments, ...inner.assignments],
        redirects: [...inner.redirects, ...seg.redirects],
        background: inner.background || seg.background,
        substitution: inner.substitution || seg.substitution,
        wrappers: [...seg.wrappers, wrapper, ...inner.wrappers],
        issues: [...seg.issues, ...inner.issues],
      });
    }
  }
  return segs.length ? segs : [{ ...outer, text: script, wrappers: [...seg.wrappers, wrapper] }];
}

// process-wide: a constant table, never written
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** `find … -exec cmd {} \;`: find itself, plus each command it runs (peeled too). */
function findExec(seg: Segment, reparse: Reparse, depth: number): Segment[] {
  const out: Segment[] = [seg];
  for (let i = 1; i < seg.argv.length; i++) {
    if (!FIND_EXEC.has(seg.argv[i])) continue;
    let end = i + 1;
    while (end < seg.argv.length && seg.argv[end] !== ';' && seg.argv[end] !== '+') end++;
    const inner: Segment = {
      ...seg,
      argv: seg.argv.slice(i + 1, end),
      words: seg.words.slice(i + 1, end),
      wrappers: [...seg.wrappers, `find ${seg.argv[i]}`],
      issues: [],
    };
    if (inner.argv.length) out.push(...peel(inner, reparse, depth));
    i = end;
  }
  return out;
}
