/**
 * Keyword pre-checks: a rule's regex runs only when one of its keywords occurs in the segment.
 * Keywords are lower-case literals that every match of the regex contains, so skipping is safe.
 */

/** The part of a scanner segment the pre-check reads and caches into. */
export interface KeywordTarget {
  lower: string;
  keywordCache?: Map<string, boolean>;
  grams?: Uint8Array;
}

/** True when the segment contains any of the lower-case keywords (or no keywords are given). */
export function hasAny(seg: KeywordTarget, keywords?: readonly string[]): boolean {
  if (!keywords) return true;
  const seen = (seg.keywordCache ??= new Map());
  return keywords.some((k) => {
    let found = seen.get(k);
    if (found === undefined) {
      if (seg.lower.length >= GRAM_MIN_TEXT) seg.grams ??= trigramBitmap(seg.lower);
      found = (!seg.grams || mayContain(seg.grams, k)) && seg.lower.includes(k);
      seen.set(k, found);
    }
    return found;
  });
}

/**
 * Most keywords are absent from most text, and each absent one costs a full `includes` scan. A
 * bitmap of the text's character trigrams (built in one pass) rules most of them out first.
 */
const GRAM_MIN_TEXT = 4096;

function gramHash(a: number, b: number, c: number, mask: number): number {
  return (Math.imul(a * 65599 + b * 257 + c, 0x9e3779b1) >>> 8) & mask;
}

function trigramBitmap(text: string): Uint8Array {
  let bits = 1 << 14;
  while (bits < text.length * 4 && bits < 1 << 22) bits <<= 1;
  const map = new Uint8Array(bits >> 3);
  const mask = bits - 1;
  for (let i = 2; i < text.length; i++) {
    const h = gramHash(text.charCodeAt(i - 2), text.charCodeAt(i - 1), text.charCodeAt(i), mask);
    map[h >> 3] |= 1 << (h & 7);
  }
  return map;
}

function mayContain(map: Uint8Array, keyword: string): boolean {
  const mask = map.length * 8 - 1;
  for (let i = 2; i < keyword.length; i++) {
    const h = gramHash(keyword.charCodeAt(i - 2), keyword.charCodeAt(i - 1), keyword.charCodeAt(i), mask);
    if ((map[h >> 3] & (1 << (h & 7))) === 0) return false;
  }
  return true;
}
