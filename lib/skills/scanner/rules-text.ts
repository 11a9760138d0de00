/**
 * Text rules: prompt injection in instructions (Markdown), hidden characters (anywhere), and
 * obfuscated code (escape runs, decoders on long literals, long high-entropy lines).
 */
import { type FindingSink, flagAll, lineIndexAt, matches, type Pattern, type Segment, segMatches } from './model';
import { hasAny, rawHits } from './prefilter';
import { anchoredWord, triggerPassEnabled } from './triggers';

const EXFILTRATE = anchoredWord(/\bexfiltrat(?:e|es|ed|ing|ion)\b/gi, ['exfiltrat']);
/** A negation, or the stem of a word of prevention or attack ("prevents", "blocking", "attackers"). */
const PROHIBITION = /\b(?:(?:not|never|cannot|can't|don'?t|no|against|malicious)\b|prevent|block|detect|protect|avoid|stop|mitigat|prohibit|forbid|attack)/i;

/** "cannot read or exfiltrate it", "don't … facilitate data exfiltration": the word in a sentence that forbids it. */
function inProhibition(text: string, offset: number): boolean {
  let start = offset;
  while (start > 0 && offset - start < 400 && !/[.!?\n]/.test(text[start - 1])) start--;
  let end = offset;
  while (end < text.length && end - offset < 400 && !/[.!?\n]/.test(text[end])) end++;
  return PROHIBITION.test(text.slice(start, end));
}

/** Each regex with keywords, one of which must occur (cheap pre-check). */
const OVERRIDE: [RegExp, string[]][] = [
  [
    anchoredWord(
      /\bignore\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|former)\s+(?:instructions?|prompts?|rules|directions|messages)\b/gi,
      ['ignore'],
    ),
    ['ignore'],
  ],
  [
    anchoredWord(
      /\bdisregard\s{1,100}(?:all\s{1,100}|any\s{1,100})?(?:of\s{1,100})?(?:the\s{1,100}|your\s{1,100})?(?:previous\s{1,100}|prior\s{1,100}|above\s{1,100}|earlier\s{1,100})?(?:system\s{1,100}prompt|instructions|rules|guidelines|directions)\b/gi,
      ['disregard'],
    ),
    ['disregard'],
  ],
  [
    anchoredWord(
      /\bforget\s{1,100}(?:all\s{1,100})?(?:of\s{1,100})?(?:your|the|previous|prior)\s{1,100}(?:previous\s{1,100}|prior\s{1,100})?(?:instructions|rules|guidelines)\b/gi,
      ['forget'],
    ),
    ['forget'],
  ],
  [
    anchoredWord(
      /\byou\s+are\s+now\s+(?:DAN\b|an?\s+(?:unrestricted|unfiltered|uncensored|jailbroken|evil)\b|free\s+(?:from|of)\b|no\s+longer\s+(?:bound|restricted|an?\s+(?:AI|assistant)\b)|in\s+(?:developer|god|jailbreak|DAN)\s+mode\b)/gi,
      ['you'],
    ),
    ['now'],
  ],
  [
    anchoredWord(
      /\b(?:act|behave)\s{1,100}as\s{1,100}(?:DAN\b|an?\s{1,100}(?:unrestricted|unfiltered|jailbroken)\b)|\bdo\s{1,100}anything\s{1,100}now\b|\b(?:developer|jailbreak|DAN)\s{1,100}mode\s{1,100}(?:enabled|on|activated)\b/gi,
      ['act', 'behave', 'do', 'developer', 'jailbreak', 'dan'],
    ),
    ['dan', 'anything', 'mode', 'unrestricted', 'unfiltered', 'jailbroken'],
  ],
  [
    anchoredWord(
      /\b(?:reveal|print|output|show|repeat|leak|dump)\s{1,100}(?:me\s{1,100})?(?:your|the)\s{1,100}(?:full\s{1,100}|entire\s{1,100})?(?:system\s{1,100}prompt|hidden\s{1,100}instructions|initial\s{1,100}instructions|original\s{1,100}instructions)\b/gi,
      ['reveal', 'print', 'output', 'show', 'repeat', 'leak', 'dump'],
    ),
    ['prompt', 'instructions'],
  ],
  [EXFILTRATE, ['exfiltrat']],
];
const CONCEAL: [RegExp, string[]][] = [
  [
    anchoredWord(
      /\b(?:do\s{1,100}not|don'?t|never)\s{1,100}(?:tell|inform|notify|alert|warn|mention\s{1,100}(?:this|it)\s{1,100}to)\s{1,100}(?:the\s{1,100})?user\b/gi,
      ['do', 'never'],
    ),
    ['user'],
  ],
  [anchoredWord(/\bwithout\s+(?:asking|telling|informing|notifying|alerting|warning)\s+(?:the\s+)?user\b/gi, ['without']), ['user']],
  [anchoredWord(/\bwithout\s+the\s+user(?:'s)?\s+(?:knowledge|knowing|noticing|consent|awareness)\b/gi, ['without']), ['user']],
  [anchoredWord(/\b(?:secretly|covertly)\b/gi, ['secretly', 'covertly']), ['secretly', 'covertly']],
];
/** `[//]: # (text)` — a Markdown link definition used as a comment. */
const MD_COMMENT = /^\[(?:\/\/|comment)\]:\s*(?:#|<>)\s*\(([^)\n]{1,2000})\)/gm;

/** HTML comments (an unclosed one hides the rest of the file) and Markdown comments. */
function hiddenComments(text: string): { start: number; end: number; body: string }[] {
  const out: { start: number; end: number; body: string }[] = [];
  for (let i = text.indexOf('<!--'); i !== -1; ) {
    const close = text.indexOf('-->', i + 4);
    const end = close === -1 ? text.length : close + 3;
    out.push({ start: i, end, body: text.slice(i + 4, close === -1 ? text.length : close) });
    i = text.indexOf('<!--', end);
  }
  for (const m of matches(MD_COMMENT, text)) out.push({ start: m.index, end: m.index + m[0].length, body: m[1] });
  return out;
}
const INSTRUCTIVE =
  /\b(?:you\s{1,100}(?:must|should|will|are\s{1,100}to)|ignore|instructions?|assistant|execute|run\s{1,100}(?:the|this)|send|upload|curl|wget|password|api[\s_-]?key|secret)\b/i;
/** Zero-width, bidi controls, and Unicode tag characters (invisible ASCII smuggling). */
const HIDDEN_CHARS = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/gu;
/** The same characters as UTF-16 code units (a tag character's high surrogate): a cheap first check without the `u` flag. */
const MAYBE_HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\uDB40]/;
const PICTOGRAPH = /\p{Extended_Pictographic}|[\u{1F3FB}-\u{1F3FF}]|\uFE0F/u;

/** A zero-width joiner between two emoji is how emoji sequences are built, not hidden text. */
function isEmojiJoiner(text: string, i: number): boolean {
  if (text.charCodeAt(i) !== 0x200d) return false;
  const before = String.fromCodePoint(text.codePointAt(i - 1) ?? 0);
  const beforePair = i >= 2 ? text.slice(i - 2, i) : '';
  const after = String.fromCodePoint(text.codePointAt(i + 1) ?? 0);
  return (PICTOGRAPH.test(before) || PICTOGRAPH.test(beforePair)) && PICTOGRAPH.test(after);
}

/** The raw text may hold a hidden character: from the trigger pass, or (old path) a search. */
const mayHide = (seg: Segment): boolean => (triggerPassEnabled() ? rawHits(seg).hidden : MAYBE_HIDDEN.test(seg.raw));

function hiddenLines(seg: Segment): Set<number> {
  const lines = new Set<number>();
  if (!mayHide(seg)) return lines;
  for (const m of matches(HIDDEN_CHARS, seg.raw)) if (!isEmojiJoiner(seg.raw, m.index)) lines.add(lineIndexAt(seg, m.index));
  return lines;
}

export function hiddenTextRules(seg: Segment, sink: FindingSink): void {
  if (!mayHide(seg)) return;
  for (const m of matches(HIDDEN_CHARS, seg.raw)) {
    if (isEmojiJoiner(seg.raw, m.index)) continue;
    const cp = m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    sink.add(seg, 'hidden-text', 'warn', m.index, `Invisible or text-direction control character U+${cp}: text the reader does not see.`);
  }
}

export function promptInjectionRules(seg: Segment, sink: FindingSink): void {
  const comments = hiddenComments(seg.raw);
  const inComment = (offset: number) => comments.some((c) => offset >= c.start && offset < c.end);
  const hidden = hiddenLines(seg);
  const hits: { offset: number; line: number; conceal: boolean }[] = [];
  for (const [re, keywords] of OVERRIDE) {
    if (!hasAny(seg, keywords)) continue;
    for (const m of segMatches(seg, re, seg.raw)) {
      if (re === EXFILTRATE && inProhibition(seg.raw, m.index)) continue;
      hits.push({ offset: m.index, line: lineIndexAt(seg, m.index), conceal: false });
    }
  }
  for (const [re, keywords] of CONCEAL)
    if (hasAny(seg, keywords)) for (const m of segMatches(seg, re, seg.raw)) hits.push({ offset: m.index, line: lineIndexAt(seg, m.index), conceal: true });
  for (const h of hits) {
    const paired = hits.some((o) => o.conceal !== h.conceal && Math.abs(o.line - h.line) <= 3);
    const secret = inComment(h.offset) || hidden.has(h.line) || paired;
    const why = inComment(h.offset)
      ? ' inside a hidden HTML comment'
      : hidden.has(h.line)
        ? ' next to invisible characters'
        : paired
          ? ' combined with an instruction to hide it from the user'
          : '';
    const what = h.conceal ? "Instruction to act behind the user's back" : 'Prompt-injection phrase';
    sink.add(seg, 'prompt-injection', secret ? 'critical' : 'warn', h.offset, `${what}${why}.`);
  }
  for (const c of comments) {
    if (INSTRUCTIVE.test(c.body)) sink.add(seg, 'prompt-injection', 'warn', c.start, 'Hidden comment holding instructions the user does not see rendered.');
  }
}

const OBFUSCATION: Pattern[] = [
  [/(?:\\x[0-9a-fA-F]{2}){6,}/g, 'Run of \\xNN escapes (obfuscated string).', ['\\x']],
  [/(?:\\u[0-9a-fA-F]{4}){6,}/g, 'Run of \\uNNNN escapes (obfuscated string).', ['\\u']],
  [
    /\b(?:atob|Buffer\s{0,100}\.\s{0,100}from|b64decode|decodebytes|FromBase64String)\s{0,100}\(\s{0,100}[bB]?['"`][A-Za-z0-9+/=_-]{200}/g,
    'Decodes a long base64 literal at run time.',
    ['atob', 'buffer', 'b64decode', 'decodebytes', 'frombase64string'],
  ],
  [
    // The literal is read to its end by the head, so the tail starts right after it.
    { head: /\becho\s{1,100}(?:-n\s{1,100})?['"]?[A-Za-z0-9+/=]{200,}/g, tail: /['"]?\s{0,100}\|\s{0,100}base64\s{1,100}(?:-d|--decode|-D)\b/g, gap: 0 },
    'Decodes a long base64 literal at run time.',
    ['base64'],
  ],
];

const LONG_LINE = 1000;

function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    h -= p * Math.log2(p);
  }
  return h;
}

export function obfuscationRules(seg: Segment, sink: FindingSink): void {
  flagAll(sink, seg, 'obfuscated-code', 'warn', OBFUSCATION);
  if (seg.decoded) return;
  const starts = seg.lineStarts;
  for (let i = 0; i < starts.length; i++) {
    const end = i + 1 < starts.length ? starts[i + 1] - 1 : seg.code.length;
    if (end - starts[i] < LONG_LINE) continue;
    const line = seg.code.slice(starts[i], end);
    if (entropy(line) >= 5)
      sink.add(seg, 'obfuscated-code', 'warn', starts[i], `Very long line (${line.length} chars) of high-entropy text: packed or obfuscated code.`);
  }
}
