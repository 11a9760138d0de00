/**
 * Comment blanking for source rules: comments become spaces (newlines kept), so offsets and line
 * numbers stay those of the original text. Strings are followed with their nesting (JS template
 * `${}`, Python f-string `{}`, shell `"$(…)"`), so `"http://x"` or `'#'` is never taken for a
 * comment. A lexer can still be confused by contrived code; the scanner therefore also runs the
 * rules over the raw text and reports hits that only exist in "comments" at a lower severity.
 */
import type { Lang } from './model';

/** `src` with each [from, to) range turned into spaces, line breaks kept. */
export function applyBlanks(src: string, ranges: readonly [number, number][]): string {
  if (ranges.length === 0) return src;
  let out = '';
  let pos = 0;
  for (const [from, to] of ranges) {
    const piece = src.slice(from, to);
    const oneLine = piece.indexOf('\n') === -1 && piece.indexOf('\r') === -1;
    out += src.slice(pos, from) + (oneLine ? ' '.repeat(piece.length) : piece.replace(/[^\r\n]/g, ' '));
    pos = to;
  }
  return out + src.slice(pos);
}

type Ranges = [number, number][];

function lineEnd(src: string, i: number): number {
  const end = src.indexOf('\n', i);
  return end === -1 ? src.length : end;
}

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isWord = (c: string | undefined) => c !== undefined && /\w/.test(c);

/** End of a quoted string starting at `i`, backslash escapes honoured; single-line unless `multiline`. */
function skipQuoted(src: string, i: number, quote: string, multiline: boolean): number {
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j];
    if (c === '\\') j++;
    else if (c === quote) return j + 1;
    else if (c === '\n' && !multiline) return j;
  }
  return src.length;
}

// ---------- JavaScript / TypeScript ----------

/** Characters after which a `/` starts a regex literal rather than a division. */
// process-wide: a constant table, never written
const REGEX_PRECEDERS = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const AFTER_KEYWORD = /\b(?:return|typeof|case|in|of|void|delete|yield|await|else|do)$/;

/** End of a regex literal starting at `i`, or -1 when it is not one (no closing `/` on the line). */
function skipRegex(src: string, i: number): number {
  let inClass = false;
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j];
    if (c === '\n') return -1;
    if (c === '\\') j++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return j + 1;
  }
  return -1;
}

function skipTemplate(src: string, i: number, ranges: Ranges): number {
  let j = i + 1;
  while (j < src.length) {
    const c = src[j];
    if (c === '\\') j += 2;
    else if (c === '`') return j + 1;
    else if (c === '$' && src[j + 1] === '{') j = lexJs(src, j + 2, ranges, true);
    else j++;
  }
  return src.length;
}

/** Lexes JS from `start`; with `untilBrace`, stops after the `}` closing a template `${`. */
function lexJs(src: string, start: number, ranges: Ranges, untilBrace: boolean): number {
  let prev = '';
  let depth = 0;
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === '"' || c === "'") {
      i = skipQuoted(src, i, c, false);
      prev = 'a';
    } else if (c === '`') {
      i = skipTemplate(src, i, ranges);
      prev = 'a';
    } else if (c === '/' && src[i + 1] === '/') {
      const stop = lineEnd(src, i);
      ranges.push([i, stop]);
      i = stop;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? src.length : end + 2;
      ranges.push([i, stop]);
      i = stop;
    } else if (c === '/' && (REGEX_PRECEDERS.has(prev) || AFTER_KEYWORD.test(src.slice(Math.max(0, i - 12), i).trimEnd()))) {
      const end = skipRegex(src, i);
      i = end === -1 ? i + 1 : end;
      prev = 'a';
    } else {
      if (untilBrace && c === '{') depth++;
      else if (untilBrace && c === '}') {
        if (depth === 0) return i + 1;
        depth--;
      }
      if (!isSpace(c)) prev = c;
      i++;
    }
  }
  return src.length;
}

// ---------- Python ----------

function skipPyString(src: string, i: number, ranges: Ranges): number {
  let k = i;
  while (k > 0 && i - k < 2 && /[rRbBuUfFtT]/.test(src[k - 1])) k--;
  const prefix = k > 0 && isWord(src[k - 1]) ? '' : src.slice(k, i);
  const formatted = /[fFtT]/.test(prefix);
  const q = src[i];
  const triple = src.startsWith(q.repeat(3), i);
  let j = i + (triple ? 3 : 1);
  while (j < src.length) {
    const c = src[j];
    if (c === '\\') j += 2;
    else if (triple ? src.startsWith(q.repeat(3), j) : c === q) return j + (triple ? 3 : 1);
    else if (!triple && c === '\n') return j;
    else if (formatted && c === '{') j = src[j + 1] === '{' ? j + 2 : lexPython(src, j + 1, ranges, true);
    else j++;
  }
  return src.length;
}

/** Lexes Python from `start`; with `untilBrace`, stops after the `}` closing an f-string field. */
function lexPython(src: string, start: number, ranges: Ranges, untilBrace: boolean): number {
  let depth = 0;
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === '"' || c === "'") i = skipPyString(src, i, ranges);
    else if (c === '#') {
      const stop = lineEnd(src, i);
      ranges.push([i, stop]);
      i = stop;
    } else {
      if (untilBrace && (c === '{' || c === '(' || c === '[')) depth++;
      else if (untilBrace && (c === '}' || c === ')' || c === ']')) {
        if (depth === 0 && c === '}') return i + 1;
        depth = Math.max(0, depth - 1);
      }
      i++;
    }
  }
  return src.length;
}

// ---------- shell ----------

const HEREDOC = /<<-?\s*(['"]?)([A-Za-z_][\w-]*)\1/y;

/** Offset after the bodies of the heredocs opened on the previous line. */
function skipHeredocBodies(src: string, from: number, delimiters: string[]): number {
  let pos = from;
  for (const delim of delimiters) {
    for (;;) {
      const end = src.indexOf('\n', pos);
      const line = src.slice(pos, end === -1 ? src.length : end).replace(/\r$/, '');
      pos = end === -1 ? src.length : end + 1;
      if (line.trim() === delim || end === -1) break;
    }
  }
  return pos;
}

function skipShellDouble(src: string, i: number, ranges: Ranges): number {
  let j = i + 1;
  while (j < src.length) {
    const c = src[j];
    if (c === '\\') j += 2;
    else if (c === '"') return j + 1;
    else if (c === '$' && src[j + 1] === '(') j = lexShell(src, j + 2, ranges, ')');
    else if (c === '`') j = lexShell(src, j + 1, ranges, '`');
    else j++;
  }
  return src.length;
}

/** Lexes shell from `start`; `until` ends a `$(…)` or backtick substitution. */
function lexShell(src: string, start: number, ranges: Ranges, until: ')' | '`' | null): number {
  let depth = 0;
  let caseDepth = 0;
  const heredocs: string[] = [];
  let i = start;
  while (i < src.length) {
    const c = src[i];
    if (c === "'") {
      i = src[i - 1] === '$' ? skipQuoted(src, i, "'", true) : src.indexOf("'", i + 1) + 1 || src.length;
    } else if (c === '"') i = skipShellDouble(src, i, ranges);
    else if (c === '`') {
      if (until === '`') return i + 1;
      i = lexShell(src, i + 1, ranges, '`');
    } else if (c === '$' && src[i + 1] === '(') i = lexShell(src, i + 2, ranges, ')');
    else if (c === '\\') i += 2;
    else if (c === '<' && src[i + 1] === '<') {
      HEREDOC.lastIndex = i;
      const m = HEREDOC.exec(src);
      if (m) heredocs.push(m[2]);
      i += m ? m[0].length : 2;
    } else if (c === '\n' && heredocs.length > 0) i = skipHeredocBodies(src, i + 1, heredocs.splice(0));
    else if (c === '#' && (i === 0 || /[\s;&|()]/.test(src[i - 1]))) {
      const stop = lineEnd(src, i);
      ranges.push([i, stop]);
      i = stop;
    } else {
      if (until === ')' && c === '(') depth++;
      else if (until === ')' && c === ')') {
        if (depth === 0 && caseDepth === 0) return i + 1;
        if (depth > 0) depth--;
      } else if ((c === 'c' || c === 'e') && !isWord(src[i - 1])) {
        if (src.startsWith('case', i) && !isWord(src[i + 4])) caseDepth++;
        else if (src.startsWith('esac', i) && !isWord(src[i + 4])) caseDepth = Math.max(0, caseDepth - 1);
      }
      i++;
    }
  }
  return src.length;
}

export function blankComments(src: string, lang: Lang): string {
  const ranges: Ranges = [];
  if (lang === 'js') lexJs(src, 0, ranges, false);
  else if (lang === 'python') lexPython(src, 0, ranges, false);
  else if (lang === 'shell') lexShell(src, 0, ranges, null);
  else return src;
  ranges.sort((a, b) => a[0] - b[0]);
  return applyBlanks(src, ranges);
}
