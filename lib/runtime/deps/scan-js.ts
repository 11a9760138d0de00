/**
 * JS/TS module-specifier extraction. Best effort without a parser: comments are blanked
 * first (string literals are kept, they hold the specifiers), then `require('x')`, `import … from
 * 'x'`, `import 'x'`, `import('x')` and `export … from 'x'` are matched. Type-only imports and
 * exports are skipped (TypeScript erases them).
 */

export interface JsImport {
  /** The specifier as written, e.g. `@scope/pkg/sub`, `./x`, `node:fs`. */
  specifier: string;
  line: number;
}

/** Replaces `//` and `/* *\/` comments with spaces (newlines kept); strings and templates are skipped over. */
export function blankJsComments(src: string): string {
  const out: string[] = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const ch = src[i];
    if (ch === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') {
        out.push(' ');
        i++;
      }
      continue;
    }
    if (ch === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      for (; i < stop; i++) out.push(src[i] === '\n' ? '\n' : ' ');
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      out.push(ch);
      i++;
      while (i < n && src[i] !== ch) {
        if (src[i] === '\\' && i + 1 < n) {
          out.push(src[i], src[i + 1]);
          i += 2;
          continue;
        }
        if (src[i] === '\n' && ch !== '`') break; // unterminated string: stop at the line end
        out.push(src[i]);
        i++;
      }
      if (i < n && src[i] === ch) {
        out.push(ch);
        i++;
      }
      continue;
    }
    out.push(ch);
    i++;
  }
  return out.join('');
}

/** A quoted specifier: group `n` is the quote, group `n + 1` the specifier, closed by the same quote. */
const q = (n: number) => `(['"])([^'"\\n\\r]{1,300})\\${n}`;
const PATTERNS: { re: RegExp; typeGroup?: number; clauseGroup?: number; specGroup: number }[] = [
  // require('x'), require.resolve('x')
  { re: new RegExp(String.raw`(?<![\w$.])require(?:\.resolve)?\s*\(\s*${q(1)}\s*\)`, 'g'), specGroup: 2 },
  // import('x')
  { re: new RegExp(String.raw`(?<![\w$.])import\s*\(\s*(['"\`])([^'"\`\n\r]{1,300})\1\s*[,)]`, 'g'), specGroup: 2 },
  // import [type] clause from 'x'
  {
    re: new RegExp(String.raw`(?<![\w$.])import\s+(type\s+)?([\w$*{}\s,]+?)\s*from\s*${q(3)}`, 'g'),
    typeGroup: 1,
    clauseGroup: 2,
    specGroup: 4,
  },
  // import 'x'
  { re: new RegExp(String.raw`(?<![\w$.])import\s*${q(1)}`, 'g'), specGroup: 2 },
  // export [type] * [as ns] from 'x', export [type] { a, b } from 'x'
  {
    re: new RegExp(String.raw`(?<![\w$.])export\s+(type\s+)?(\*(?:\s+as\s+[\w$]+)?|\{[^}]*\})\s*from\s*${q(3)}`, 'g'),
    typeGroup: 1,
    clauseGroup: 2,
    specGroup: 4,
  },
];

/** `{ type A, type B }` (and no default import): every specifier is a type, so TypeScript erases the import. */
function onlyTypes(clause: string): boolean {
  const m = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!m) return false;
  const parts = m[1].split(',').map((p) => p.trim()).filter(Boolean);
  return parts.length > 0 && parts.every((p) => /^type\s+/.test(p));
}

/** Module specifiers of a JS/TS file, in source order. */
export function extractJsImports(src: string): JsImport[] {
  const text = blankJsComments(src.replace(/\r\n?/g, '\n'));
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const found: { specifier: string; line: number; at: number }[] = [];
  const taken = new Set<number>();
  for (const p of PATTERNS) {
    for (const m of text.matchAll(p.re)) {
      if (taken.has(m.index!)) continue;
      taken.add(m.index!);
      if (p.typeGroup && m[p.typeGroup]) continue;
      if (p.clauseGroup && onlyTypes(m[p.clauseGroup])) continue;
      found.push({ specifier: m[p.specGroup], line: lineAt(m.index!), at: m.index! });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ specifier, line }) => ({ specifier, line }));
}

/**
 * The npm package a specifier names: `@scope/name` or the first path segment. null for relative and
 * absolute paths, URLs and other schemes (`node:`, `data:`, `file:`), and `#subpath` imports.
 */
export function packageOfSpecifier(specifier: string): string | null {
  const s = specifier.trim();
  if (!s || s.startsWith('.') || s.startsWith('/') || s.startsWith('#') || s.startsWith('~') || s.includes(':') || s.includes('\\')) return null;
  const parts = s.split('/');
  if (s.startsWith('@')) return parts.length >= 2 && parts[1] ? `${parts[0]}/${parts[1]}` : null;
  return parts[0];
}
