/**
 * Two-step matches for "A, then B a little further on the same line": a short head regex finds
 * where a match may start, a tail regex must then start at most `gap` characters after the head's
 * end, on the same line and with none of `stop` in between. The same matches as one regex
 * `head[^\n]{0,gap}?tail`, without the backtracking of the lazy gap into the tail (each head costs
 * the few characters up to the next tail, and the tail search is shared by every head).
 */
export interface Near {
  /** Global; where a match starts. */
  head: RegExp;
  /** Global; what must follow the head. */
  tail: RegExp;
  /** Most characters between the head's end and the tail's start. */
  gap: number;
  /** Characters (besides the newline) the gap may not hold. */
  stop?: string;
}

export interface NearMatch {
  /** Where the head starts. */
  index: number;
  head: RegExpExecArray;
  tail: RegExpExecArray;
}

/** Next occurrence of one character at or after a position, for queries that only move forward. */
export class NextOf {
  private at = -2;
  constructor(
    private readonly text: string,
    private readonly ch: string,
  ) {}

  from(pos: number): number {
    if (this.at === -2 || (this.at !== -1 && this.at < pos)) this.at = this.text.indexOf(this.ch, pos);
    return this.at === -1 ? this.text.length : this.at;
  }
}

/** Every match, left to right, without overlaps (as a global regex would report them). */
export function* nearMatches(text: string, n: Near): Generator<NearMatch> {
  const stops = ['\n', ...(n.stop ?? '')].map((c) => new NextOf(text, c));
  let tail: RegExpExecArray | null = null;
  let searchedFrom = -1;
  let resume = 0;
  n.head.lastIndex = 0;
  for (let head = n.head.exec(text); head; head = n.head.exec(text)) {
    if (head[0].length === 0) n.head.lastIndex++;
    if (head.index < resume) continue;
    const from = head.index + head[0].length;
    let limit = from + n.gap;
    for (const s of stops) limit = Math.min(limit, s.from(from));
    // Heads come in order, so the first tail at or after `from` is still the last one found unless that one starts earlier.
    if (searchedFrom < 0 || (tail !== null && tail.index < from)) {
      n.tail.lastIndex = from;
      tail = n.tail.exec(text);
      searchedFrom = from;
    }
    if (tail === null) return;
    if (tail.index > limit) continue;
    yield { index: head.index, head, tail };
    resume = tail.index + Math.max(1, tail[0].length);
  }
}

/** True when the text holds a match. */
export function nearTest(text: string, n: Near): boolean {
  for (const _ of nearMatches(text, n)) return true;
  return false;
}
