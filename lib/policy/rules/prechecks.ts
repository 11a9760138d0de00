// Pre-checks: shell features that let a command do more than its words say — command
// substitution, variables other than a few well-known ones, redirects and tee outside ordinary
// files (see redirect-targets.ts), and `&`.

import { isSafeVar, type Word } from '../shell/words';
import type { Segment } from '../shell/wrappers';
import { baseName } from '../shell/wrappers';
import { judgeTarget, type Place } from './redirect-targets';

export interface PreCheckFinding {
  rule: 'pre_check:substitution' | 'pre_check:expansion' | 'pre_check:redirect' | 'pre_check:input_redirect' | 'pre_check:tee' | 'pre_check:background';
  reason: string;
}

const FD = /^(?:\d{1,2}|-)$/;

/** Builtins that set variables from what they read or compute: after one, no variable is known. */
// process-wide: a constant table, never written
const SETS_ANY = new Set(['read', 'mapfile', 'readarray', 'getopts', 'let', 'source', '.', 'eval']);

/**
 * The variables a command line may itself change: every name assigned, PWD after a cd, and `*`
 * (all of them) after read, mapfile, printf -v, source or eval.
 */
export function assignedNames(segments: readonly Segment[]): Set<string> {
  const out = new Set<string>();
  for (const s of segments) {
    for (const a of s.assignments) out.add(a.name);
    const name = s.argv.length ? baseName(s.argv[0]) : '';
    if (SETS_ANY.has(name) || (name === 'printf' && s.argv.some((a) => a.startsWith('-v')))) out.add('*');
    if (name === 'declare' || name === 'typeset' || name === 'local' || name === 'export' || name === 'readonly') out.add('*');
    if (name === 'cd' || name === 'pushd' || name === 'popd') out.add('PWD').add('OLDPWD');
  }
  return out;
}

/**
 * A variable whose value is one argument of data: expanded inside double quotes (no splitting, no
 * globbing), plain `$NAME`/`${NAME}`, in an argument (not the command name), and not set by the
 * command line itself — its value comes from the exec's environment, which the command cannot choose.
 */
function quotedData(w: Word, v: string, assigned: ReadonlySet<string>): boolean {
  return !w.bareVars.includes(v) && !w.operators.length && !assigned.has('*') && !assigned.has(v) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v);
}

export function preCheck(seg: Segment, place: Place, assigned: ReadonlySet<string> = new Set()): PreCheckFinding | null {
  if (seg.substitution)
    return { rule: 'pre_check:substitution', reason: 'Command substitution ($(…), backticks, <(…), >(…)) runs a command whose output is not reviewed.' };
  const name = seg.words[0];
  const args = new Set(seg.allWords.filter((w) => w !== name));
  const words = [...seg.allWords, ...seg.assignments.flatMap((a) => (a.value ? [a.value] : [])), ...seg.redirects.flatMap((r) => (r.target ? [r.target] : []))];
  for (const w of words) {
    const bad = w.vars.find((v) => (!isSafeVar(v) || assigned.has(v) || assigned.has('*')) && !(args.has(w) && quotedData(w, v, assigned)));
    if (bad !== undefined || w.operators.length) {
      return {
        rule: 'pre_check:expansion',
        reason: `The variable ${bad ? `$${bad}` : w.text} is only known at run time: an argument may use a variable of the exec's environment inside double quotes ("$NAME"), not one the command sets, splits, transforms or runs.`,
      };
    }
  }
  for (const r of seg.redirects) {
    if (r.body !== undefined || !r.target) continue;
    const t = r.target;
    if ((r.op === '>&' || r.op === '<&') && FD.test(t.value)) continue;
    const write = r.op !== '<' && r.op !== '<&';
    const c = judgeTarget(t, write, place);
    if (!c.ok)
      return write
        ? {
            rule: 'pre_check:redirect',
            reason: `Output redirect to ${c.target}: ${c.why}. Redirects may write ordinary files in the workspace, /tmp, /var/tmp and the home.`,
          }
        : { rule: 'pre_check:input_redirect', reason: `Input redirect from ${c.target}: ${c.why}.` };
  }
  if (seg.argv.length && baseName(seg.argv[0]) === 'tee') {
    const files = seg.words.slice(1).filter((w) => !w.value.startsWith('-') || w.dynamic);
    for (const w of files) {
      const c = judgeTarget(w, true, place);
      if (!c.ok) return { rule: 'pre_check:tee', reason: `tee writes ${c.target}: ${c.why}.` };
    }
  }
  if (seg.background) return { rule: 'pre_check:background', reason: 'A command sent to the background with & keeps running after the answer.' };
  return null;
}
