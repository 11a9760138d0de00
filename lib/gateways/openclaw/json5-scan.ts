// A hand-written scanner that finds where each value, key and comma of a JSON5 text sits, so a
// writer can change one value and leave every other byte alone. It runs after json5 itself has
// accepted the text (json5 gives the values and the syntax errors); it only needs to find token
// boundaries. One pass, no regexes, nesting checked before it recurses.
import { AppError } from '../../core/errors';

export const MAX_JSON5_DEPTH = 64;

export interface Span {
  start: number;
  end: number;
}

export interface ScalarNode extends Span {
  kind: 'scalar';
}

export interface ArrayNode extends Span {
  kind: 'array';
  items: { value: JsonNode; comma: number }[];
}

export interface Member {
  key: string;
  keyStart: number;
  value: JsonNode;
  /** Index of the comma after the value, or -1. */
  comma: number;
}

export interface ObjectNode extends Span {
  kind: 'object';
  members: Member[];
}

export type JsonNode = ScalarNode | ArrayNode | ObjectNode;

export interface ScannedJson5 {
  root: JsonNode;
  /** Comments in text order. */
  comments: Span[];
}

// process-wide: a constant table, never written
const ZS = new Set([0x20, 0xa0, 0x1680, 0x202f, 0x205f, 0x3000, 0xfeff, 0x09, 0x0b, 0x0c]);

/** A JSON5 line terminator. */
export function isLineEnd(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

/** JSON5 white space other than line terminators. */
export function isHSpace(c: number): boolean {
  return ZS.has(c) || (c >= 0x2000 && c <= 0x200a);
}

function hexValue(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) return -1;
    n = n * 16 + d;
  }
  return n;
}

/** An identifier key with its `\uXXXX` escapes decoded. */
function decodeIdentifier(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '\\' && raw[i + 1] === 'u') {
      out += String.fromCharCode(hexValue(raw.slice(i + 2, i + 6)));
      i += 5;
    } else out += raw[i];
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '0': '\0' };

/** A quoted string's value (the text between `start` and `end`, quotes included). */
function decodeString(text: string, start: number, end: number): string {
  let out = '';
  for (let i = start + 1; i < end - 1; i++) {
    const ch = text[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = text[++i];
    if (e in SIMPLE_ESCAPES) out += SIMPLE_ESCAPES[e];
    else if (e === 'x') {
      out += String.fromCharCode(hexValue(text.slice(i + 1, i + 3)));
      i += 2;
    } else if (e === 'u') {
      out += String.fromCharCode(hexValue(text.slice(i + 1, i + 5)));
      i += 4;
    } else if (e === '\r') {
      if (text[i + 1] === '\n') i++;
    } else if (!isLineEnd(e.charCodeAt(0))) out += e;
  }
  return out;
}

const tooDeep = () => new AppError('validation', `The JSON5 text nests objects and arrays deeper than ${MAX_JSON5_DEPTH} levels.`);

/**
 * Refuses nesting deeper than MAX_JSON5_DEPTH before anything else reads the text (json5 would build
 * millions of nested arrays from a file of `[`). Skips strings and comments; ignores syntax errors.
 */
export function checkJson5Depth(text: string): void {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      if (++depth > MAX_JSON5_DEPTH) throw tooDeep();
    } else if (c === '}' || c === ']') depth--;
    else if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c && !isLineEnd(text.charCodeAt(i))) i += text[i] === '\\' ? 2 : 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && !isLineEnd(text.charCodeAt(i))) i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
    }
  }
}

class Scanner {
  pos = 0;
  readonly comments: Span[] = [];

  constructor(readonly text: string) {}

  fail(what: string): never {
    throw new AppError('validation', `The JSON5 text could not be read at offset ${this.pos}: ${what}.`);
  }

  /** Skips white space, line ends and comments. */
  skipTrivia(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (isHSpace(c) || isLineEnd(c)) this.pos++;
      else if (c === 0x2f && t[this.pos + 1] === '/') {
        const start = this.pos;
        this.pos += 2;
        while (this.pos < t.length && !isLineEnd(t.charCodeAt(this.pos))) this.pos++;
        this.comments.push({ start, end: this.pos });
      } else if (c === 0x2f && t[this.pos + 1] === '*') {
        const start = this.pos;
        const close = t.indexOf('*/', this.pos + 2);
        if (close < 0) this.fail('unterminated comment');
        this.pos = close + 2;
        this.comments.push({ start, end: this.pos });
      } else return;
    }
  }

  /** Index just past the quoted string starting at `pos`. */
  stringEnd(): number {
    const t = this.text;
    const q = t[this.pos];
    let i = this.pos + 1;
    while (i < t.length && t[i] !== q) i += t[i] === '\\' ? 2 : 1;
    if (i >= t.length) this.fail('unterminated string');
    return i + 1;
  }

  /** Index just past a bare word (a number, literal or identifier). */
  wordEnd(): number {
    const t = this.text;
    let i = this.pos;
    while (i < t.length) {
      const c = t.charCodeAt(i);
      if (isHSpace(c) || isLineEnd(c)) break;
      if (c === 0x2c || c === 0x3a || c === 0x7d || c === 0x5d || c === 0x7b || c === 0x5b || c === 0x2f || c === 0x22 || c === 0x27) break;
      i++;
    }
    if (i === this.pos) this.fail(`unexpected '${t[i] ?? 'end of text'}'`);
    return i;
  }

  value(depth: number): JsonNode {
    const start = this.pos;
    const ch = this.text[start];
    if ((ch === '{' || ch === '[') && depth > MAX_JSON5_DEPTH) throw tooDeep();
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
    this.pos = ch === '"' || ch === "'" ? this.stringEnd() : this.wordEnd();
    return { kind: 'scalar', start, end: this.pos };
  }

  /** After a value: the index of its comma (and moves past it), or -1. */
  comma(): number {
    this.skipTrivia();
    if (this.text[this.pos] !== ',') return -1;
    return this.pos++;
  }

  object(depth: number): ObjectNode {
    const start = this.pos++;
    const members: Member[] = [];
    for (;;) {
      this.skipTrivia();
      if (this.text[this.pos] === '}') break;
      const keyStart = this.pos;
      const quoted = this.text[keyStart] === '"' || this.text[keyStart] === "'";
      const keyEnd = quoted ? this.stringEnd() : this.wordEnd();
      const key = quoted ? decodeString(this.text, keyStart, keyEnd) : decodeIdentifier(this.text.slice(keyStart, keyEnd));
      this.pos = keyEnd;
      this.skipTrivia();
      if (this.text[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      this.skipTrivia();
      const value = this.value(depth + 1);
      const comma = this.comma();
      members.push({ key, keyStart, value, comma });
      if (comma < 0) {
        if (this.text[this.pos] !== '}') this.fail("expected ',' or '}'");
        break;
      }
    }
    return { kind: 'object', start, end: ++this.pos, members };
  }

  array(depth: number): ArrayNode {
    const start = this.pos++;
    const items: ArrayNode['items'] = [];
    for (;;) {
      this.skipTrivia();
      if (this.text[this.pos] === ']') break;
      const value = this.value(depth + 1);
      const comma = this.comma();
      items.push({ value, comma });
      if (comma < 0) {
        if (this.text[this.pos] !== ']') this.fail("expected ',' or ']'");
        break;
      }
    }
    return { kind: 'array', start, end: ++this.pos, items };
  }
}

/** The located tree of a JSON5 text json5 has already accepted. */
export function scanJson5(text: string): ScannedJson5 {
  const s = new Scanner(text);
  s.skipTrivia();
  const root = s.value(1);
  s.skipTrivia();
  if (s.pos !== text.length) s.fail('text after the value');
  return { root, comments: s.comments };
}
