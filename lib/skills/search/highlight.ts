/**
 * Highlights for search hits as ranges (no markup: the UI decides how to render them, and no
 * skill text is ever interpreted as HTML). Tokens are found with the same word rule the index
 * uses, so a range always covers a whole indexed term.
 */

/** Letters, digits and underscore: `GEMINI_API_KEY` is one term, `gh-issues` two, backticks never part of one. */
export const WORD = /[\p{L}\p{N}_]+/gu;

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

export interface Highlight {
  field: 'name' | 'description' | 'body';
  /** The field text, or a window of it (with "…" where it was cut). */
  text: string;
  /** [start, end) offsets into `text` of every matched term. */
  ranges: [number, number][];
}

// Terms are runs of word characters; escaping guards the pattern anyway (only syntax characters: `u` refuses other escapes).
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One word character (a code point), tested at the edges of a candidate match. */
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

function isWordAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(i)!));
}

function isWordBefore(text: string, i: number): boolean {
  const c = text.charCodeAt(i - 1);
  // the code point ending at i - 1 starts one unit earlier when it is a surrogate pair
  const start = c >= 0xdc00 && c <= 0xdfff && i >= 2 ? i - 2 : i - 1;
  return isWordAt(text, start);
}

/**
 * Finds tokens equal to one of `terms` (lower case), ignoring case: the same tokens the index made.
 * A plain case-insensitive alternation of literals, longest first (cheap to compile, scanned
 * natively); whether a match is a whole token is checked at its two edges (termRanges).
 */
export function termMatcher(terms: ReadonlySet<string>): RegExp | null {
  const list = [...terms].filter((t) => t.length > 0);
  if (list.length === 0) return null;
  const alts = list
    .sort((a, b) => b.length - a.length)
    .map(escapeRe)
    .join('|');
  return new RegExp(alts, 'gi');
}

/**
 * Ranges in `text` of the whole tokens `matcher` finds. With `span`, the scan stops `span`
 * characters after the first range (a window around it shows no more), so a long body is not
 * scanned whole. At a given start at most the longest matching term can be a whole token (terms
 * are word characters only), so the first alternative the regex takes is the only one to check.
 */
export function termRanges(text: string, matcher: RegExp | null, span = Number.POSITIVE_INFINITY): [number, number][] {
  const out: [number, number][] = [];
  if (!matcher) return out;
  const re = matcher;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (out.length > 0 && start > out[0][0] + span) break;
    if (isWordBefore(text, start) || isWordAt(text, end)) {
      re.lastIndex = start + 1;
      continue;
    }
    out.push([start, end]);
  }
  re.lastIndex = 0;
  return out;
}

const ELLIPSIS = '…';

/**
 * A window of about `size` characters around the first range, cut at whitespace where possible;
 * ranges are shifted into the window and those outside dropped.
 */
export function windowAround(text: string, ranges: [number, number][], size = 160): { text: string; ranges: [number, number][] } {
  if (text.length <= size || ranges.length === 0)
    return { text: text.length <= size ? text : text.slice(0, size) + ELLIPSIS, ranges: ranges.filter(([, e]) => e <= size) };
  const first = ranges[0][0];
  let start = Math.max(0, first - Math.floor(size / 4));
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    if (space >= 0 && start - space < 20) start = space + 1;
  }
  let end = Math.min(text.length, start + size);
  if (end < text.length) {
    const space = text.indexOf(' ', end);
    if (space >= 0 && space - end < 20) end = space;
  }
  const prefix = start > 0 ? ELLIPSIS : '';
  const suffix = end < text.length ? ELLIPSIS : '';
  const shift = prefix.length - start;
  const inside = ranges.filter(([s, e]) => s >= start && e <= end).map(([s, e]): [number, number] => [s + shift, e + shift]);
  return { text: prefix + text.slice(start, end).replace(/\s/g, ' ') + suffix, ranges: inside };
}
