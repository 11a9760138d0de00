/**
 * Python import extraction. Best effort without a parser: comments and string literals
 * (including triple-quoted docstrings) are blanked first, keeping line numbers, so text inside them
 * is never read as an import; then each statement of each logical line is matched.
 */

export interface PyImport {
  /** Top-level module name (`a` for `import a.b as c`). */
  module: string;
  /** 1-based line. */
  line: number;
}

/** Replaces comments and the contents of string literals with spaces; newlines are kept. */
export function blankPythonStringsAndComments(src: string): string {
  const out: string[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const ch = src[i];
    if (ch === '#') {
      while (i < n && src[i] !== '\n') {
        out.push(' ');
        i++;
      }
      continue;
    }
    if (ch === '"' || ch === "'") {
      const triple = src.startsWith(ch.repeat(3), i);
      const close = triple ? ch.repeat(3) : ch;
      out.push(triple ? '   ' : ' ');
      i += close.length;
      while (i < n) {
        if (src[i] === '\\' && i + 1 < n) {
          out.push(' ', src[i + 1] === '\n' ? '\n' : ' ');
          i += 2;
          continue;
        }
        if (src.startsWith(close, i)) {
          out.push(' '.repeat(close.length));
          i += close.length;
          break;
        }
        if (src[i] === '\n' && !triple) break; // unterminated single-line string: stop at the line end
        out.push(src[i] === '\n' ? '\n' : ' ');
        i++;
      }
      continue;
    }
    out.push(ch);
    i++;
  }
  return out.join('');
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A statement may follow a compound-statement header on the same line: `try: import x`, `if y: import z`.
const HEADER = String.raw`(?:(?:try|else|finally|if|elif|except|with|for|while|async\s+with|async\s+for)\b[^:]*:\s*)?`;
const IMPORT_RE = new RegExp(String.raw`^\s*${HEADER}import\s+(.+)$`);
const FROM_RE = new RegExp(String.raw`^\s*${HEADER}from\s+(\S+)\s+import\b`);

function topLevel(dotted: string): string | null {
  const first = dotted.trim().split('.')[0];
  return IDENT.test(first) ? first : null;
}

/** The imports of a Python source file, in order (duplicates kept, each with its line). */
export function extractPythonImports(src: string): PyImport[] {
  const lines = blankPythonStringsAndComments(src.replace(/\r\n?/g, '\n')).split('\n');
  const found: PyImport[] = [];
  for (let i = 0; i < lines.length; i++) {
    const startLine = i + 1;
    let logical = lines[i];
    // Backslash continuation joins physical lines; the statement keeps its first line number.
    while (/\\\s*$/.test(logical) && i + 1 < lines.length) {
      logical = logical.replace(/\\\s*$/, ' ') + lines[++i];
    }
    for (const stmt of logical.split(';')) {
      const from = FROM_RE.exec(stmt);
      if (from) {
        const mod = from[1];
        if (mod.startsWith('.')) continue; // relative import
        const top = topLevel(mod);
        if (top && top !== '__future__') found.push({ module: top, line: startLine });
        continue;
      }
      const imp = IMPORT_RE.exec(stmt);
      if (!imp) continue;
      for (const part of imp[1].replace(/[()]/g, ' ').split(',')) {
        const name = part
          .trim()
          .split(/\sas\s/)[0]
          .trim();
        if (!name || name.startsWith('.')) continue;
        const top = topLevel(name);
        if (top && top !== '__future__') found.push({ module: top, line: startLine });
      }
    }
  }
  return found;
}
