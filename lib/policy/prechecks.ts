// Pre-checks: shell features that let a command do more than its words say — command
// substitution, variables other than a few well-known ones, output redirects (but to /dev/null and
// fd merges), input redirects (but heredocs and here-strings), tee, and `&`.

import { isSafeVar } from './words';
import type { Segment } from './wrappers';
import { baseName } from './wrappers';

export interface PreCheckFinding {
  rule: 'pre_check:substitution' | 'pre_check:expansion' | 'pre_check:redirect' | 'pre_check:input_redirect' | 'pre_check:tee' | 'pre_check:background';
  reason: string;
}

const FD = /^(?:\d{1,2}|-)$/;

export function preCheck(seg: Segment): PreCheckFinding | null {
  if (seg.substitution)
    return { rule: 'pre_check:substitution', reason: 'Command substitution ($(…), backticks, <(…), >(…)) runs a command whose output is not reviewed.' };
  const words = [...seg.allWords, ...seg.assignments.flatMap((a) => (a.value ? [a.value] : [])), ...seg.redirects.flatMap((r) => (r.target ? [r.target] : []))];
  for (const w of words) {
    const bad = w.vars.find((v) => !isSafeVar(v));
    if (bad !== undefined || w.operators.length) {
      return {
        rule: 'pre_check:expansion',
        reason: `The variable ${bad ? `$${bad}` : w.text} is only known at run time (only ${'$HOME, $PWD, $USER, $TMPDIR, $SKILLDOCK_SKILL_DIR…'} may be used).`,
      };
    }
  }
  for (const r of seg.redirects) {
    if (r.body !== undefined) continue;
    const t = r.target?.value ?? '';
    const fdMerge = (r.op === '>&' || r.op === '<&') && FD.test(t);
    if (r.op === '<' || r.op === '<&') {
      if (!fdMerge && t !== '/dev/null')
        return { rule: 'pre_check:input_redirect', reason: `Input redirect from ${t}: read files with a command (cat, head) instead.` };
      continue;
    }
    if (!fdMerge && t !== '/dev/null')
      return { rule: 'pre_check:redirect', reason: `Output redirect to ${t}: only /dev/null and fd merges (2>&1) are allowed.` };
  }
  if (seg.argv.length && baseName(seg.argv[0]) === 'tee') return { rule: 'pre_check:tee', reason: 'tee writes to files.' };
  if (seg.background) return { rule: 'pre_check:background', reason: 'A command sent to the background with & keeps running after the answer.' };
  return null;
}
