/**
 * A small JS/TS tokenizer for finding module specifiers: identifiers, one-character punctuators
 * and string literals, with comments, regex literals and template substitutions handled. It is
 * not a parser (TS types and JSX are read as plain tokens), but every character is looked at a
 * bounded number of times, so hostile files cost linear time.
 */

export type JsTokenKind = 'id' | 'str' | 'p' | 'other';

export interface JsToken {
  t: JsTokenKind;
  /** Identifier name, punctuator, or a string's raw content between its quotes. */
  v: string;
  /** The quote of a string token. */
  q?: '"' | "'" | '`';
  line: number;
}

/** Keywords after which a `/` starts a regex literal, not a division. */
// process-wide: a constant table, never written
const REGEX_AFTER = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'instanceof', 'yield', 'await']);

const isIdStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c > 127;
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);

export function tokenizeJs(src: string): JsToken[] {
  const toks: JsToken[] = [];
  const n = src.length;
  let i = 0;
  let line = 1;
  // Brace depth, and the depth at which each open template substitution `${` closes.
  let depth = 0;
  const substitutions: number[] = [];

  const skipToLineEnd = () => {
    while (i < n && src[i] !== '\n') i++;
  };
  const regexAllowed = () => {
    const prev = toks[toks.length - 1];
    if (!prev) return true;
    if (prev.t === 'p') return !')]}'.includes(prev.v) && prev.v !== '<';
    if (prev.t === 'id') return REGEX_AFTER.has(prev.v);
    return false;
  };
  /** Scans template text from `i` to its closing backtick or the next `${`; `head` is true right after the opening backtick. */
  const template = (head: boolean, startLine: number) => {
    const from = i;
    while (i < n) {
      const ch = src[i];
      if (ch === '\\') {
        if (src[i + 1] === '\n') line++;
        i += 2;
        continue;
      }
      if (ch === '`') {
        const text = src.slice(from, i);
        i++;
        toks.push(head ? { t: 'str', v: text, q: '`', line: startLine } : { t: 'other', v: '`', line: startLine });
        return;
      }
      if (ch === '$' && src[i + 1] === '{') {
        i += 2;
        substitutions.push(depth);
        toks.push({ t: 'other', v: '`', line: startLine });
        return;
      }
      if (ch === '\n') line++;
      i++;
    }
    toks.push({ t: 'other', v: '`', line: startLine });
  };

  if (src.startsWith('#!')) skipToLineEnd();
  while (i < n) {
    const ch = src[i];
    const c = src.charCodeAt(i);
    if (ch === '\n') {
      line++;
      i++;
    } else if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\f' || ch === '\v' || c === 0xfeff || c === 0xa0) {
      i++;
    } else if (ch === '/' && src[i + 1] === '/') {
      skipToLineEnd();
    } else if (ch === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      for (; i < stop; i++) if (src[i] === '\n') line++;
    } else if (ch === '"' || ch === "'") {
      const from = ++i;
      while (i < n && src[i] !== ch && src[i] !== '\n') i += src[i] === '\\' && src[i + 1] !== '\n' ? 2 : 1;
      const closed = i < n && src[i] === ch;
      toks.push(closed ? { t: 'str', v: src.slice(from, i), q: ch, line } : { t: 'other', v: ch, line });
      if (closed) i++;
    } else if (ch === '`') {
      i++;
      template(true, line);
    } else if (ch === '}' && substitutions.length && substitutions[substitutions.length - 1] === depth) {
      substitutions.pop();
      i++;
      template(false, line);
    } else if (ch === '/' && regexAllowed()) {
      // A regex literal ends on its line; an unterminated one takes the rest of the line (never re-scanned).
      i++;
      let inClass = false;
      while (i < n && src[i] !== '\n') {
        const r = src[i];
        if (r === '\\') i++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        i++;
      }
      if (i < n && src[i] === '/') {
        i++;
        while (i < n && isIdPart(src.charCodeAt(i))) i++;
      }
      toks.push({ t: 'other', v: '/', line });
    } else if (isIdStart(c)) {
      const from = i;
      while (i < n && isIdPart(src.charCodeAt(i))) i++;
      toks.push({ t: 'id', v: src.slice(from, i), line });
    } else if (c >= 48 && c <= 57) {
      while (i < n && (isIdPart(src.charCodeAt(i)) || src[i] === '.')) i++;
      toks.push({ t: 'other', v: '0', line });
    } else {
      if (ch === '{') depth++;
      else if (ch === '}') depth--;
      toks.push({ t: 'p', v: ch, line });
      i++;
    }
  }
  return toks;
}
