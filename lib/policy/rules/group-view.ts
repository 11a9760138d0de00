// What a deny-group rule looks at: one segment's parsed command name, arguments, assignments,
// redirect targets, the wrappers around it and the pipeline it feeds — never the raw string, so a
// word inside a quoted argument is data.

import type { Segment } from '../shell/wrappers';
import { baseName } from '../shell/wrappers';
import { reachedPaths } from './protected-paths';
import { namedPaths, writeTargets } from './writers';

export interface GroupView {
  /** Basename of the command, lower-cased. */
  name: string;
  args: string[];
  assignments: { name: string; value: string }[];
  /** Base names of the wrappers (`sudo`, `env`, `sh`). */
  wrappers: string[];
  /** Redirect targets with their operator (`>` `~/.bashrc`). */
  redirects: { op: string; target: string }[];
  /** Every path-ish string the segment touches: arguments, `--opt=` values, redirect targets, assignment values. */
  strings: string[];
  /** A later command of the same pipeline runs what it reads (a shell or an interpreter without a script). */
  feedsCode: boolean;
  /** Variables referenced with a parameter transformation (`${x@P}`). */
  transforms: boolean;
  /** Every path the segment names, absolute and normalised (relative ones read from the working directory). */
  paths: string[];
  /** Every path the segment writes (redirects, cp/mv/install/ln targets, tee, sort -o, sed w …), absolute and normalised. */
  writes: string[];
}

/** Where relative paths and globs are read from; without it only the words as written are seen. */
export interface ViewPlace {
  cwd: string;
  home: string;
}

export function groupView(seg: Segment, feedsCode: boolean, place?: ViewPlace): GroupView {
  const args = seg.argv.slice(1);
  const redirects = seg.redirects.filter((r) => r.target).map((r) => ({ op: r.op, target: r.target!.value }));
  const assignments = seg.assignments.map((a) => ({ name: a.name, value: a.value?.value ?? '' }));
  const strings = [...args, ...redirects.map((r) => r.target), ...assignments.map((a) => a.value)];
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq > 0) strings.push(a.slice(eq + 1));
  }
  if (place) {
    const targets = seg.redirects.flatMap((r) => (r.target && r.body === undefined ? [r.target] : []));
    strings.push(...reachedPaths([...seg.words.slice(1), ...targets], place.cwd, place.home));
  }
  return {
    name: seg.argv.length ? baseName(seg.argv[0]) : '',
    args,
    assignments,
    wrappers: seg.wrappers.map((w) => baseName(w.split(' ')[0])),
    redirects,
    strings,
    feedsCode,
    transforms: seg.words.some((w) => w.operators.includes('@')) || seg.assignments.some((a) => a.value?.operators.includes('@')),
    paths: place ? namedPaths(seg, place.cwd, place.home) : [],
    writes: place ? writeTargets(seg, place.cwd, place.home) : [],
  };
}

/** Short options of an argument list, split (`-rf` → r, f); long options kept whole. */
export function shortFlags(args: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const a of args) {
    if (a === '--') break;
    if (a.startsWith('--')) out.add(a.split('=', 1)[0]);
    else if (a.startsWith('-') && a.length > 1) for (const c of a.slice(1)) out.add(c);
  }
  return out;
}

/**
 * A Unicode-aware whole-word test: `word` with no letter, digit or `_` of any script on either side,
 * so `su` is not found in `suất` or `sudoku`. `word` is matched literally.
 */
export function hasWord(text: string, word: string): boolean {
  const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
  let from = 0;
  for (;;) {
    const i = text.indexOf(word, from);
    if (i < 0) return false;
    const before = i > 0 ? String.fromCodePoint(text.codePointAt(i - 1 - (i > 1 && /[\uDC00-\uDFFF]/.test(text[i - 1]) ? 1 : 0))!) : undefined;
    const after = text[i + word.length] === undefined ? undefined : String.fromCodePoint(text.codePointAt(i + word.length)!);
    if (!isWordChar(before) && !isWordChar(after)) return true;
    from = i + 1;
  }
}
