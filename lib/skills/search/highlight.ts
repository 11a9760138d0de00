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

/**
 * Finds whole tokens equal to one of `terms` (lower case), ignoring case: the same tokens the index
 * made, found by the regex engine instead of tokenizing the whole text in JavaScript. An alternation
 * of literals between two one-character lookarounds: linear in the text.
 */
export function termMatcher(terms: ReadonlySet<string>): RegExp | null {
  const list = [...terms].filter((t) => t.length > 0);
  if (list.length === 0) return null;
  const alts = list
    .sort((a, b) => b.length - a.length)
    .map(escapeRe)
    .join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alts})(?![\\p{L}\\p{N}_])`, 'giu');
}

/**
 * Ranges in `text` of the tokens `matcher` finds. With `span`, the scan stops `span` characters
 * after the first range (a window around it shows no more), so a long body is not scanned whole.
 */
export function termRanges(text: string, matcher: RegExp | null, span = Number.POSITIVE_INFINITY): [number, number][] {
  const out: [number, number][] = [];
  if (!matcher) return out;
  const re = new RegExp(matcher.source, matcher.flags);
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (out.length > 0 && m.index > out[0][0] + span) break;
    out.push([m.index, m.index + m[0].length]);
  }
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
