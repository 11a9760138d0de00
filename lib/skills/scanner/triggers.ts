/**
 * One pass over a text finds every trigger literal the rules declare (an Aho–Corasick automaton
 * over ASCII letters folded to lower case), so a rule neither rescans the text for its keywords
 * nor runs its regex from every offset: a regex declared with `anchored` is tried (sticky) only
 * where one of its literals starts, which gives the same matches as a global scan as long as
 * every match starts at one of them. Only ASCII is folded: the rules' regexes have no `u` flag, and
 * without it an ASCII letter matches no other character, even case-insensitively.
 */

// process-wide: the automaton of the scan rules' literals, declared as the rule modules load (constant rules)
const literals: string[] = [];
// process-wide: part of the automaton above
const literalIds = new Map<string, number>();
// process-wide: part of the automaton above
let automaton: Automaton | null = null;

/** The old path (every regex over the whole text, keywords by `includes`), kept for the equivalence tests. */
// process-wide: a switch between two equivalent scan paths, for the equivalence tests; no service data
let enabled = true;

export function setTriggerPass(on: boolean): void {
  enabled = on;
}

export function triggerPassEnabled(): boolean {
  return enabled;
}

/** Printable lower-case ASCII, 1 to 64 characters. */
export const isTriggerLiteral = (literal: string): boolean =>
  literalIds.has(literal) || (/^[\x20-\x7e]{1,64}$/.test(literal) && literal === literal.toLowerCase());

/** Every literal declared so far, by id (for the tests that check the pass against a plain search). */
export function triggerLiterals(): readonly string[] {
  return [...literals];
}

export function literalId(literal: string): number {
  let id = literalIds.get(literal);
  if (id === undefined) {
    if (!isTriggerLiteral(literal)) throw new Error(`Bad trigger literal: ${JSON.stringify(literal)}`);
    id = literals.length;
    literals.push(literal);
    literalIds.set(literal, id);
    automaton = null;
  }
  return id;
}

interface Automaton {
  /** Literals covered: hits computed by this automaton know nothing of later ones. */
  count: number;
  /**
   * Next state by (state << shift | class of the folded character). Characters no literal holds
   * share class 0, so the table is a few times smaller than one row of 128 per state and stays in
   * the processor's cache (the pass is bound by these lookups).
   */
  delta: Uint16Array | Int32Array;
  shift: number;
  /** Class of each ASCII character, folded to lower case (0: in no literal). */
  classOf: Uint8Array;
  /** Literal ids ending at each state (its own and those of its suffix states), or null. */
  out: (number[] | null)[];
  /** 1 where `out` holds ids: a byte to test per character instead of an array slot. */
  hasOut: Uint8Array;
  lens: number[];
}

function build(): Automaton {
  const next: Map<number, number>[] = [new Map()];
  const out: (number[] | null)[] = [null];
  literals.forEach((lit, id) => {
    let s = 0;
    for (let i = 0; i < lit.length; i++) {
      const c = lit.charCodeAt(i);
      let t = next[s].get(c);
      if (t === undefined) {
        t = next.length;
        next[s].set(c, t);
        next.push(new Map());
        out.push(null);
      }
      s = t;
    }
    (out[s] ??= []).push(id);
  });
  // Classes: 0 for characters in no literal, then one per character that some literal holds.
  const classOf = new Uint8Array(128);
  let classes = 1;
  for (const lit of literals) for (let i = 0; i < lit.length; i++) if (classOf[lit.charCodeAt(i)] === 0) classOf[lit.charCodeAt(i)] = classes++;
  for (let c = 65; c <= 90; c++) classOf[c] = classOf[c + 32];
  let shift = 0;
  while (1 << shift < classes) shift++;
  const width = 1 << shift;
  // The transitions over the 128 characters first (Aho–Corasick's failure links), then folded into classes.
  const full = new Int32Array(next.length << 7);
  const fail = new Int32Array(next.length);
  const queue: number[] = [];
  for (let c = 0; c < 128; c++) {
    const t = next[0].get(c) ?? 0;
    full[c] = t;
    if (t !== 0) queue.push(t);
  }
  for (let qi = 0; qi < queue.length; qi++) {
    const s = queue[qi];
    const f = fail[s];
    if (out[f]) out[s] = [...(out[s] ?? []), ...out[f]!];
    for (let c = 0; c < 128; c++) {
      const t = next[s].get(c);
      if (t === undefined) full[(s << 7) | c] = full[(f << 7) | c];
      else {
        full[(s << 7) | c] = t;
        fail[t] = full[(f << 7) | c];
        queue.push(t);
      }
    }
  }
  const delta = next.length <= 0xffff ? new Uint16Array(next.length << shift) : new Int32Array(next.length << shift);
  // Every character of a class moves the same way from every state (class 0: a character no literal holds, so back to the root).
  const rep = new Int32Array(width);
  for (let c = 0; c < 128; c++) if ((c < 65 || c > 90) && classOf[c] > 0) rep[classOf[c]] = c;
  for (let st = 0; st < next.length; st++) for (let k = 1; k < classes; k++) delta[(st << shift) | k] = full[(st << 7) | rep[k]];
  const hasOut = Uint8Array.from(out, (ids) => (ids ? 1 : 0));
  return { count: literals.length, delta, shift, classOf, out, hasOut, lens: literals.map((l) => l.length) };
}

// process-wide: a constant lookup table, filled once at load
const BASE64 = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_') BASE64[c.charCodeAt(0)] = 1;

/** Shortest run of base64 characters worth decoding. */
export const MIN_BASE64_RUN = 16;

export interface TextHits {
  /** Literals this pass looked for (ids below it). */
  count: number;
  /** Start offsets of each literal, ascending (no entry: none). */
  at: (number[] | undefined)[];
  /** Offsets where a line starts (0, and after \n, \r, U+2028, U+2029: what `^` matches with the `m` flag), made on first use. */
  lineStarts?: number[];
  /** The text holds a character the hidden-text rule looks for (zero-width, bidi control, tag-character surrogate). */
  hidden: boolean;
  /** Maximal runs of base64 characters (standard or URL-safe) of MIN_BASE64_RUN or more: start, end, start, end… */
  base64Runs: number[];
}

const isHiddenUnit = (c: number) => (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0xdb40;

export function scanText(text: string): TextHits {
  automaton ??= build();
  const { delta, shift, classOf, out, hasOut, count, lens } = automaton;
  const at: (number[] | undefined)[] = new Array(count);
  const base64Runs: number[] = [];
  let run = -1;
  let hidden = false;
  let s = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let k = 0;
    if (c < 128) {
      k = classOf[c];
      if (BASE64[c] === 1) {
        if (run < 0) run = i;
      } else if (run >= 0) {
        if (i - run >= MIN_BASE64_RUN) base64Runs.push(run, i);
        run = -1;
      }
    } else {
      if (run >= 0) {
        if (i - run >= MIN_BASE64_RUN) base64Runs.push(run, i);
        run = -1;
      }
      if (!hidden && isHiddenUnit(c)) hidden = true;
    }
    s = delta[(s << shift) | k];
    if (hasOut[s] === 1) {
      const ids = out[s]!;
      for (let j = 0; j < ids.length; j++) {
        const id = ids[j];
        const list = at[id];
        if (list === undefined) at[id] = [i - lens[id] + 1];
        else list.push(i - lens[id] + 1);
      }
    }
  }
  if (run >= 0 && text.length - run >= MIN_BASE64_RUN) base64Runs.push(run, text.length);
  return { count, at, hidden, base64Runs };
}

/** First index of an ascending list whose value is at least `min`. */
function lowerBound(list: number[], min: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < min) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The pass over `text.slice(start, start + length)` taken from the pass over `text` (a fenced
 * block inside its Markdown file): the literals wholly inside, the base64 runs cut at the edges.
 */
export function sliceHits(hits: TextHits, text: string, start: number, length: number): TextHits {
  const end = start + length;
  const at: (number[] | undefined)[] = new Array(hits.count);
  for (let id = 0; id < hits.count; id++) {
    const list = hits.at[id];
    if (!list) continue;
    const last = end - literals[id].length;
    let picked: number[] | undefined;
    for (let i = lowerBound(list, start); i < list.length && list[i] <= last; i++) (picked ??= []).push(list[i] - start);
    at[id] = picked;
  }
  const base64Runs: number[] = [];
  for (let i = 0; i < hits.base64Runs.length; i += 2) {
    const a = Math.max(hits.base64Runs[i], start);
    const b = Math.min(hits.base64Runs[i + 1], end);
    if (b - a >= MIN_BASE64_RUN) base64Runs.push(a - start, b - start);
  }
  let hidden = false;
  if (hits.hidden) for (let i = start; i < end && !hidden; i++) hidden = isHiddenUnit(text.charCodeAt(i));
  return { count: hits.count, at, hidden, base64Runs };
}

// process-wide: the shared empty answer, never written
const NO_HITS: number[] = [];

function lineStartsOf(hits: TextHits, text: string): number[] {
  if (hits.lineStarts) return hits.lineStarts;
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) starts.push(i + 1);
  }
  hits.lineStarts = starts;
  return starts;
}

/** Start offsets of a literal in the text: from the pass when it covered the literal, else by search. */
export function positionsOf(hits: TextHits, text: string, literal: string): number[] {
  const id = literalId(literal);
  if (id < hits.count) return hits.at[id] ?? NO_HITS;
  const found: number[] = [];
  const re = new RegExp(literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'gi');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    found.push(m.index);
    re.lastIndex = m.index + 1;
  }
  return found;
}

interface Anchors {
  sticky: RegExp;
  literals: readonly string[];
  lineStarts: boolean;
  wordStart: boolean;
}

export interface AnchorOptions {
  /** Matches may also start where a line starts (a `^` with the `m` flag). */
  lineStarts?: boolean;
  /** No match starts right after a word character (`\b` before a word character, or a lookbehind refusing `\w`). */
  wordStart?: boolean;
}

const isWordCode = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

// process-wide: where the constant rules' regexes may match, declared as the rule modules load
const anchorsOf = new Map<RegExp, Anchors>();

/**
 * Declares where every match of a global regex starts: where one of `starts` (lower-case ASCII
 * literals) begins, or, with `lineStarts`, at the start of a line. Returns the regex.
 */
export function anchored<R extends RegExp>(re: R, starts: readonly string[], opts: AnchorOptions = {}): R {
  if (!re.global) throw new Error('anchored: the regex must be global');
  for (const s of starts) literalId(s);
  const sticky = new RegExp(re.source, `${re.flags.replace('g', '')}y`);
  anchorsOf.set(re, { sticky, literals: starts, lineStarts: opts.lineStarts ?? false, wordStart: opts.wordStart ?? false });
  return re;
}

/** `anchored` for a regex whose every match starts at a word start. */
export const anchoredWord = <R extends RegExp>(re: R, starts: readonly string[]): R => anchored(re, starts, { wordStart: true });

export function isAnchored(re: RegExp): boolean {
  return anchorsOf.has(re);
}

/** Every anchored regex, for the tests that compare them with a global scan. */
export function anchoredRegexes(): RegExp[] {
  return [...anchorsOf.keys()];
}

/** Sorted, de-duplicated union of ascending lists. */
function union(lists: number[][]): number[] {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? [];
  const all = nonEmpty.flat().sort((a, b) => a - b);
  const outList: number[] = [];
  for (const p of all) if (outList.length === 0 || outList[outList.length - 1] !== p) outList.push(p);
  return outList;
}

/** Every match of an anchored regex over `text`, as a global scan would report them (left to right, without overlaps). */
export function* anchoredMatches(re: RegExp, text: string, hits: TextHits): Generator<RegExpExecArray> {
  const a = anchorsOf.get(re);
  if (!a) throw new Error('anchoredMatches: the regex is not anchored');
  const lists = a.literals.map((l) => positionsOf(hits, text, l));
  if (a.lineStarts) lists.push(lineStartsOf(hits, text));
  let resume = 0;
  for (const p of union(lists)) {
    if (p < resume || p > text.length || (a.wordStart && p > 0 && isWordCode(text.charCodeAt(p - 1)))) continue;
    a.sticky.lastIndex = p;
    const m = a.sticky.exec(text);
    if (m) {
      yield m;
      resume = m.index + Math.max(1, m[0].length);
    }
  }
}
