/**
 * JS/TS module-specifier extraction. Best effort without a parser: over the tokens of the file
 * (comments, strings and regex literals told apart), `require('x')`, `import … from 'x'`,
 * `import 'x'`, `import('x')` and `export … from 'x'` are recognised. Type-only imports and exports
 * are skipped (TypeScript erases them). Linear in the file's size: no regex runs over the source.
 */
import { type JsToken, tokenizeJs } from './js-tokens';

export interface JsImport {
  /** The specifier as written, e.g. `@scope/pkg/sub`, `./x`, `node:fs`. */
  specifier: string;
  line: number;
}

/** How far a clause (`a, { b as c }`, `* as ns`) is followed before giving up: keeps hostile input linear. */
const MAX_CLAUSE_TOKENS = 256;

const isP = (t: JsToken | undefined, v: string) => t?.t === 'p' && t.v === v;
const isId = (t: JsToken | undefined, v: string) => t?.t === 'id' && t.v === v;

/** A string token usable as a specifier: 1–300 characters, no quotes or line breaks; backticks only where allowed. */
function specOf(t: JsToken | undefined, backtick = false): string | null {
  if (t?.t !== 'str' || (t.q === '`' && !backtick)) return null;
  return t.v.length >= 1 && t.v.length <= 300 && !/['"`\n\r]/.test(t.v) ? t.v : null;
}

/** `{ type A, type B }` (and no default import): every specifier is a type, so TypeScript erases the import. */
function onlyTypes(clause: JsToken[]): boolean {
  if (!isP(clause[0], '{') || !isP(clause[clause.length - 1], '}')) return false;
  const parts: JsToken[][] = [[]];
  for (const t of clause.slice(1, -1)) {
    if (isP(t, ',')) parts.push([]);
    else parts[parts.length - 1].push(t);
  }
  const named = parts.filter((p) => p.length > 0);
  return named.length > 0 && named.every((p) => isId(p[0], 'type') && p.length > 1);
}

/** From `toks[j]`, a clause of names and `* { } ,` closed by `from 'x'`: the index of the specifier, or -1. */
function clauseEnd(toks: JsToken[], j: number, anyInBraces: boolean): number {
  const start = j;
  let inBraces = false;
  for (; j < toks.length && j - start <= MAX_CLAUSE_TOKENS; j++) {
    const t = toks[j];
    if (isId(t, 'from') && j > start && !inBraces && specOf(toks[j + 1]) !== null) return j + 1;
    if (isP(t, '{')) inBraces = true;
    else if (isP(t, '}')) inBraces = false;
    else if (!(t.t === 'id' || (t.t === 'p' && '*,'.includes(t.v)) || (inBraces && anyInBraces))) return -1;
  }
  return -1;
}

/** Module specifiers of a JS/TS file, in source order. */
export function extractJsImports(src: string): JsImport[] {
  const toks = tokenizeJs(src);
  const found: JsImport[] = [];
  const add = (t: JsToken | undefined, line: number) => {
    const s = specOf(t, true);
    if (s !== null) found.push({ specifier: s, line });
  };
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (tok.t !== 'id' || isP(toks[k - 1], '.')) continue;
    if (tok.v === 'require') {
      // require('x'), require.resolve('x')
      let j = k + 1;
      if (isP(toks[j], '.') && isId(toks[j + 1], 'resolve')) j += 2;
      if (isP(toks[j], '(') && specOf(toks[j + 1]) !== null && isP(toks[j + 2], ')')) add(toks[j + 1], tok.line);
    } else if (tok.v === 'import') {
      const next = toks[k + 1];
      if (isP(next, '(')) {
        // import('x'), import(`x`), import('x', { with: … })
        if (isP(toks[k + 3], ',') || isP(toks[k + 3], ')')) add(toks[k + 2], tok.line);
      } else if (specOf(next) !== null) {
        add(next, tok.line); // import 'x'
      } else {
        // import [type] clause from 'x' — `import type from 'x'` imports a default named "type"
        let j = k + 1;
        const typeOnly = isId(toks[j], 'type') && !(isId(toks[j + 1], 'from') && specOf(toks[j + 2]) !== null);
        if (typeOnly) j++;
        const end = clauseEnd(toks, j, false);
        if (end !== -1 && !typeOnly && !onlyTypes(toks.slice(j, end - 1))) add(toks[end], tok.line);
      }
    } else if (tok.v === 'export') {
      // export [type] * [as ns] from 'x', export [type] { a, b } from 'x'
      let j = k + 1;
      const typeOnly = isId(toks[j], 'type');
      if (typeOnly) j++;
      if (!isP(toks[j], '*') && !isP(toks[j], '{')) continue;
      const end = clauseEnd(toks, j, true);
      if (end !== -1 && !typeOnly && !onlyTypes(toks.slice(j, end - 1))) add(toks[end], tok.line);
    }
  }
  return found;
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
