/**
 * Keyword pre-checks: a rule's regex runs only when one of its keywords occurs in the segment.
 * Keywords are lower-case literals that every match of the regex contains, so skipping is safe.
 * They are answered from the segment's trigger pass (triggers.ts); the search below is the old path.
 */
import { isTriggerLiteral, positionsOf, scanText, sliceHits, type TextHits, triggerPassEnabled } from './triggers';

/** The part of a scanner segment the pre-check reads and caches into. */
export interface KeywordTarget {
  code: string;
  raw: string;
  /** `code` lower-cased (old path only). */
  lower?: string;
  keywordCache?: Map<string, boolean>;
  grams?: Uint8Array;
  /** The trigger pass over `code`, and over `raw` when it differs. */
  codeHits?: TextHits;
  rawHits?: TextHits;
  /** Set when `code` is a slice of `parent.code` from `start` on. */
  within?: { parent: KeywordTarget; start: number };
}

/** A script's segments share texts (the raw twin's code is the script's raw text): the last passes are kept by text. */
// process-wide: a pure memo of the last few texts' literal hits (the scanner is a pure function of a file)
const recent: { text: string; hits: TextHits }[] = [];

function hitsFor(text: string): TextHits {
  for (const r of recent) if (r.text === text) return r.hits;
  const hits = scanText(text);
  recent.unshift({ text, hits });
  if (recent.length > 3) recent.pop();
  return hits;
}

export function codeHits(seg: KeywordTarget): TextHits {
  if (!seg.codeHits) {
    const w = seg.within;
    seg.codeHits = w ? sliceHits(codeHits(w.parent), w.parent.code, w.start, seg.code.length) : hitsFor(seg.code);
  }
  return seg.codeHits;
}

export function rawHits(seg: KeywordTarget): TextHits {
  if (seg.raw === seg.code) return codeHits(seg);
  seg.rawHits ??= hitsFor(seg.raw);
  return seg.rawHits;
}

/** True when the segment contains any of the lower-case keywords (or no keywords are given). */
export function hasAny(seg: KeywordTarget, keywords?: readonly string[]): boolean {
  if (!keywords) return true;
  if (triggerPassEnabled() && keywords.every(isTriggerLiteral)) {
    const hits = codeHits(seg);
    return keywords.some((k) => positionsOf(hits, seg.code, k).length > 0);
  }
  seg.lower ??= seg.code.toLowerCase();
  const lower = seg.lower;
  const seen = (seg.keywordCache ??= new Map());
  return keywords.some((k) => {
    let found = seen.get(k);
    if (found === undefined) {
      if (lower.length >= GRAM_MIN_TEXT) seg.grams ??= trigramBitmap(lower);
      found = (!seg.grams || mayContain(seg.grams, k)) && lower.includes(k);
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
