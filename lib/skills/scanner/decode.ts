/**
 * Encoded payloads (a blind spot of line-based scanners, used by the ClawHavoc campaign): base64 and hex literals in any file are
 * decoded and, when they decode to text, re-scanned as segments of their own (up to 3 levels).
 * Running decoded content (`… | base64 -d | bash`, `exec(b64decode(…))`) is a finding by itself.
 */

import { trimEndChar } from '../../core/text';
import { type DecodedPart, type FindingSink, fileLineAt, flagAll, makeSegment, matches, type Pattern, type Segment } from './model';
import { rawHits } from './prefilter';
import { INTERPRETER } from './rules-network';
import { anchored, anchoredWord, MIN_BASE64_RUN, triggerPassEnabled } from './triggers';

export const MAX_DECODE_DEPTH = 3;

const HEX_ESCAPES = /(?:\\x[0-9a-fA-F]{2}){8,}/g;
const HEX_TOKEN = /^(?:0x)?([0-9a-fA-F]+)$/;
const MIN_TOKEN = MIN_BASE64_RUN;
const ONLY_HEX = /^[0-9a-fA-F]+$/;

function printableRatio(buf: Buffer): number {
  let ok = 0;
  for (const b of buf) if ((b >= 0x20 && b < 0x7f) || b === 9 || b === 10 || b === 13) ok++;
  return buf.length === 0 ? 0 : ok / buf.length;
}

/** The decoded bytes as text when they are mostly printable ASCII (UTF-16LE too: PowerShell -EncodedCommand). */
function asText(buf: Buffer): string | null {
  if (buf.length < 8) return null;
  if (buf.length % 2 === 0) {
    let zeros = 0;
    for (let i = 1; i < buf.length; i += 2) if (buf[i] === 0) zeros++;
    if (zeros >= (buf.length / 2) * 0.9) {
      const text = buf.toString('utf16le');
      return printableRatio(Buffer.from(text, 'latin1')) >= 0.95 ? text : null;
    }
  }
  return printableRatio(buf) >= 0.95 ? buf.toString('latin1') : null;
}

function decodeBase64(candidate: string): string | null {
  const body = trimEndChar(candidate, '=');
  if (body.length % 4 === 1 || ONLY_HEX.test(body)) return null;
  if (/[+/]/.test(body) && /[-_]/.test(body)) return null;
  // Cheap rejection first: most candidates (identifiers, paths) decode to binary noise.
  if (body.length > 64 && asText(Buffer.from(body.slice(0, 64), 'base64')) === null) return null;
  return asText(Buffer.from(body, 'base64'));
}

function decodeHex(digits: string): string | null {
  if (digits.length % 2 !== 0) return null;
  return asText(Buffer.from(digits, 'hex'));
}

// process-wide: a constant lookup table, filled once at load
const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_') BASE64_CHAR[c.charCodeAt(0)] = 1;

/** Each run with up to two "=" of padding after it. */
function* padded(text: string, runs: readonly number[]): Generator<[number, string]> {
  for (let k = 0; k < runs.length; k += 2) {
    let end = runs[k + 1];
    while (end < text.length && end - runs[k + 1] < 2 && text.charCodeAt(end) === 61) end++;
    yield [runs[k], text.slice(runs[k], end)];
  }
}

/** Maximal runs of base64 characters (standard or URL-safe) of 16+ chars, with up to two "=" of padding (old path: the trigger pass finds the runs). */
function* base64Runs(text: string): Generator<[number, string]> {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    if (c < 128 && BASE64_CHAR[c] === 1) {
      if (start < 0) start = i;
      continue;
    }
    if (start >= 0 && i - start >= MIN_TOKEN) {
      let end = i;
      while (end < text.length && end - i < 2 && text.charCodeAt(end) === 61) end++;
      yield [start, text.slice(start, end)];
    }
    start = -1;
  }
}

/**
 * One segment holding every literal of `seg` that decodes to text, joined by blank lines (the
 * caller re-scans it; one segment keeps thousands of small payloads cheap), or null.
 */
export function decodePayloads(seg: Segment): Segment | null {
  const depth = seg.decoded?.depth ?? 0;
  if (depth >= MAX_DECODE_DEPTH) return null;
  const parts: DecodedPart[] = [];
  const texts: string[] = [];
  let length = 0;
  const add = (text: string, encoding: 'base64' | 'hex', offset: number) => {
    if (texts.length > 0) length += 2;
    parts.push({ start: length, end: length + text.length, line: fileLineAt(seg, offset), encoding });
    texts.push(text);
    length += text.length;
  };
  const runs = triggerPassEnabled() ? padded(seg.raw, rawHits(seg).base64Runs) : base64Runs(seg.raw);
  for (const [start, token] of runs) {
    const hex = HEX_TOKEN.exec(token);
    if (hex) {
      const text = decodeHex(hex[1]);
      if (text !== null) add(text, 'hex', start);
      continue;
    }
    let text = decodeBase64(token);
    // A payload after a URL path ("https://host/<base64>") shares its run with the path.
    if (text === null && token.includes('/'))
      text = token.split('/').reduce<string | null>((found, part) => found ?? (part.length >= MIN_TOKEN ? decodeBase64(part) : null), null);
    if (text !== null) add(text, 'base64', start);
  }
  if (seg.raw.includes('\\x')) {
    for (const m of matches(HEX_ESCAPES, seg.raw)) {
      const text = decodeHex(m[0].replace(/\\x/g, ''));
      if (text !== null) add(text, 'hex', m.index);
    }
  }
  if (parts.length === 0) return null;
  return makeSegment({ file: seg.file, lang: 'decoded', context: 'decoded', raw: texts.join('\n\n'), firstLine: 1, decoded: { depth: depth + 1, parts } });
}

const DECODERS = String.raw`(?:base64\s+(?:-[a-zA-Z]*[dD][a-zA-Z]*\b|--decode)|openssl\s+(?:enc\s+)?-?base64\s+-d|xxd\s+(?:-p\s+)?-r|b64decode|FromBase64String)`;

const DECODER_WORDS = ['base64', 'xxd', 'b64decode', 'frombase64string'];

const EXECUTED_DECODE_CRITICAL: Pattern[] = [
  [
    anchored(new RegExp(String.raw`${DECODERS}[^\n]{0,200}?(?<!\|)\|(?!\|)\s*${INTERPRETER}`, 'g'), [
      'base64',
      'openssl',
      'xxd',
      'b64decode',
      'frombase64string',
    ]),
    'Decoded content is piped into an interpreter.',
    DECODER_WORDS,
  ],
  [
    anchoredWord(
      new RegExp(
        String.raw`(?:(?<![\w.-])(?:(?:ba|z|da|k)?sh|python[23]?|node|perl)\s+-c|(?<![\w-])eval|(?<![\w.-])(?:(?:ba|z|da|k)?sh|source)\s+<\()\s*["']?(?:\$\(|\x60)?[^\n]{0,300}?${DECODERS}`,
        'g',
      ),
      ['sh', 'bash', 'zsh', 'dash', 'ksh', 'python', 'node', 'perl', 'eval', 'source'],
    ),
    'Runs decoded content.',
    DECODER_WORDS,
  ],
  [
    // Any prefix of -EncodedCommand from -e on: PowerShell accepts every unambiguous abbreviation.
    {
      head: /\b(?:powershell|pwsh)(?:\.exe)?\b/gi,
      tail: /[\s"'(]-e(?:c|n|nc|nco|ncod|ncode|ncoded|ncodedc\w{0,6})?\s{1,100}['"]?[A-Za-z0-9+/]{20}/gi,
      gap: 200,
    },
    'PowerShell -EncodedCommand runs a base64 payload.',
    ['powershell', 'pwsh'],
  ],
  [
    anchored(/\b(?:iex|Invoke-Expression)\b[^\n]{0,300}?FromBase64String|FromBase64String[^\n]{0,300}?\|\s*(?:iex|Invoke-Expression)\b/gi, [
      'iex',
      'invoke-expression',
      'frombase64string',
    ]),
    'Invoke-Expression of base64-decoded content.',
    ['frombase64string'],
  ],
];
const EXECUTED_DECODE_WARN: Pattern[] = [
  [
    anchoredWord(
      /(?<![\w$.])(?:eval|Function)\s*\(\s*(?:atob|Buffer\s*\.\s*from|unescape|decodeURIComponent)\s*\(|\bnew\s+Function\s*\(\s*(?:atob|Buffer\s*\.\s*from)\s*\(/g,
      ['eval', 'function', 'new'],
    ),
    'Evaluates decoded content.',
    ['atob', 'buffer', 'unescape', 'decodeuri'],
  ],
  [
    anchoredWord(
      /(?<![\w.])(?:exec|eval)\s*\(\s*(?:base64\s*\.\s*\w{0,20}decode\w{0,10}|codecs\s*\.\s*decode|bytes\s*\.\s*fromhex|binascii\s*\.\s*(?:unhexlify|a2b_\w+)|zlib\s*\.\s*decompress|marshal\s*\.\s*loads)\s*\(/g,
      ['exec', 'eval'],
    ),
    'Executes decoded content.',
    ['decode', 'fromhex', 'unhexlify', 'a2b_', 'decompress', 'marshal'],
  ],
];

export function executedDecodeRules(seg: Segment, sink: FindingSink): void {
  flagAll(sink, seg, 'encoded-payload', 'critical', EXECUTED_DECODE_CRITICAL);
  flagAll(sink, seg, 'encoded-payload', 'warn', EXECUTED_DECODE_WARN);
}
