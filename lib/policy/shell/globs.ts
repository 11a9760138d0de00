// Unquoted globs and brace expansions in path arguments, judged by what they could expand to. A
// word's pattern keeps its quoted characters escaped (`\*`), as bash does before matching. The
// pattern is brace-expanded (bounded), `~` expanded, made absolute, and split into segments; each
// segment is matched with the shared wildcard matcher (no backtracking).
import { matchWildcard, type WildcardAtom } from '../../core/wildcard';

/** More brace alternatives than this and the word is judged as reaching any path. */
export const MAX_ALTERNATIVES = 64;
// process-wide: a constant table, never written
const SPECIAL = new Set(['*', '?', '[', ']', '{', '}', ',', '\\', '~']);

/** Quoted text inside a pattern: every character that could mean something is escaped. */
export function escapePattern(s: string): string {
  let out = '';
  for (const ch of s) out += SPECIAL.has(ch) ? `\\${ch}` : ch;
  return out;
}

/** One path segment of a glob: a literal name, or atoms for the wildcard matcher. */
export type GlobSegment = { literal: string } | { atoms: WildcardAtom[] };

/** Where a glob can reach: segments of an absolute path, or anywhere at all. */
export type GlobPath = { any: true } | { any: false; segments: GlobSegment[] };

const POSIX_CLASSES: Record<string, (c: string) => boolean> = {
  alpha: (c) => /\p{L}/u.test(c),
  digit: (c) => c >= '0' && c <= '9',
  alnum: (c) => /[\p{L}\p{N}]/u.test(c),
  upper: (c) => c !== c.toLowerCase(),
  lower: (c) => c !== c.toUpperCase(),
  space: (c) => /\s/.test(c),
  blank: (c) => c === ' ' || c === '\t',
  xdigit: (c) => /[0-9a-fA-F]/.test(c),
  word: (c) => /[\p{L}\p{N}_]/u.test(c),
};

/** `[…]` starting at `at` (the `[`): a one-character predicate and the index after `]`; null when not closed. */
function bracket(p: string, at: number): { test: (c: string) => boolean; end: number } | null {
  let i = at + 1;
  const negate = p[i] === '!' || p[i] === '^';
  if (negate) i++;
  const tests: ((c: string) => boolean)[] = [];
  let first = true;
  while (i < p.length && (first || p[i] !== ']')) {
    first = false;
    if (p[i] === '[' && (p[i + 1] === ':' || p[i + 1] === '=' || p[i + 1] === '.')) {
      const close = p.indexOf(`${p[i + 1]}]`, i + 2);
      if (close < 0) return null;
      const name = p.slice(i + 2, close);
      // An unknown class, an equivalence class or a collating symbol: any character.
      tests.push(p[i + 1] === ':' && POSIX_CLASSES[name] ? POSIX_CLASSES[name] : () => true);
      i = close + 2;
      continue;
    }
    let lo = p[i];
    if (lo === '\\' && i + 1 < p.length) lo = p[++i];
    i++;
    if (p[i] === '-' && i + 1 < p.length && p[i + 1] !== ']') {
      let hi = p[i + 1];
      i += 2;
      if (hi === '\\' && i < p.length) hi = p[i++];
      const [a, b] = [lo, hi];
      tests.push((c) => c >= a && c <= b);
    } else tests.push((c) => c === lo);
  }
  if (i >= p.length) return null;
  return { test: (c) => tests.some((t) => t(c)) !== negate, end: i + 1 };
}

/** One segment of a pattern (no `/` inside) → a literal or atoms. */
export function segmentOf(p: string): GlobSegment {
  const atoms: WildcardAtom[] = [];
  let literal = true;
  for (let i = 0; i < p.length; ) {
    const c = p[i];
    if (c === '\\' && i + 1 < p.length) {
      atoms.push({ kind: 'char', ch: p[i + 1] });
      i += 2;
    } else if (c === '*') {
      literal = false;
      if (atoms.at(-1)?.kind !== 'star') atoms.push({ kind: 'star' });
      i++;
    } else if (c === '?') {
      literal = false;
      atoms.push({ kind: 'any' });
      i++;
    } else if (c === '[' && bracket(p, i)) {
      const b = bracket(p, i)!;
      literal = false;
      atoms.push({
        kind: 'token',
        ends: (s, at) => (at < s.length && b.test(String.fromCodePoint(s.codePointAt(at)!)) ? [at + (s.codePointAt(at)! > 0xffff ? 2 : 1)] : []),
      });
      i = b.end;
    } else {
      atoms.push({ kind: 'char', ch: c });
      i++;
    }
  }
  if (literal) return { literal: atoms.map((a) => (a.kind === 'char' ? a.ch : '')).join('') };
  return { atoms };
}

/** Brace expansion of a pattern (`a{b,c}d` → `abd`, `acd`), escapes respected; null past the bound. */
export function expandBraces(p: string, budget = MAX_ALTERNATIVES): string[] | null {
  let open = -1;
  let depth = 0;
  const commas: number[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '{') {
      if (depth === 0) {
        open = i;
        commas.length = 0;
      }
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        if (commas.length) {
          const head = p.slice(0, open);
          const tail = p.slice(i + 1);
          const bounds = [open, ...commas, i];
          const out: string[] = [];
          for (let k = 0; k + 1 < bounds.length; k++) {
            const more = expandBraces(head + p.slice(bounds[k] + 1, bounds[k + 1]) + tail, budget - out.length);
            if (!more) return null;
            out.push(...more);
            if (out.length > budget) return null;
          }
          return out;
        }
        open = -1;
      }
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  return [p];
}

/** `~`, `~/x`, `~+`, `~root`: the folder a tilde prefix names; null when it cannot be known. */
export function tildeHome(prefix: string, home: string, cwd: string): string | null {
  if (prefix === '') return home;
  if (prefix === '+') return cwd;
  if (prefix === 'root') return '/root';
  return null;
}

/** Where a pattern (already escaped) can reach, read against the working directory and home. */
export function globPath(pattern: string, cwd: string, home: string): GlobPath[] {
  const alts = expandBraces(pattern);
  if (!alts) return [{ any: true }];
  return alts.map((alt): GlobPath => {
    let p = alt;
    if (p.startsWith('~')) {
      const slash = p.indexOf('/');
      const prefix = slash < 0 ? p.slice(1) : p.slice(1, slash);
      const dir = /[\\*?[]/.test(prefix) ? null : tildeHome(prefix, home, cwd);
      if (dir === null) return { any: true };
      p = escapePattern(dir) + (slash < 0 ? '' : p.slice(slash));
    }
    if (!p.startsWith('/')) p = `${escapePattern(cwd)}/${p}`;
    const segments: GlobSegment[] = [];
    for (const raw of p.split('/')) {
      if (raw === '' || raw === '.') continue;
      if (raw === '..') {
        // `x*/..` goes up from every folder the glob matched (or a symlink's target): anywhere.
        if (segments.some((s) => 'atoms' in s)) return { any: true };
        segments.pop();
        continue;
      }
      segments.push(segmentOf(raw));
    }
    return { any: false, segments };
  });
}

/** A slot of a protected path: a name, or any process id (`1`, `self`, `thread-self`). */
export type Slot = string | { pid: true };

function segmentMatches(g: GlobSegment, slot: Slot): boolean {
  if (typeof slot === 'string') return 'literal' in g ? g.literal === slot : matchWildcard(g.atoms, slot);
  if ('literal' in g) return /^(?:\d{1,10}|self|thread-self)$/.test(g.literal);
  if (matchWildcard(g.atoms, 'self') || matchWildcard(g.atoms, 'thread-self')) return true;
  // Some run of digits matches: every literal character is a digit, every class admits one.
  return g.atoms.every((a) => a.kind === 'star' || a.kind === 'any' || (a.kind === 'char' ? a.ch >= '0' && a.ch <= '9' : digitIn(a)));
}

function digitIn(a: WildcardAtom): boolean {
  if (a.kind !== 'token') return false;
  for (const d of '0123456789') if ([...a.ends(d, 0)].length) return true;
  return false;
}

/**
 * A glob touches a protected path when each of its segments can match the protected path's segment
 * at the same depth. A glob that ends above the protected path touches it only when `dir` is set
 * (listing or walking a folder reaches what is inside; a file is touched only by naming it).
 */
export function touches(g: GlobPath, target: readonly Slot[], dir: boolean): boolean {
  if (g.any) return true;
  if (g.segments.length < target.length && !dir) return false;
  const n = Math.min(g.segments.length, target.length);
  for (let i = 0; i < n; i++) if (!segmentMatches(g.segments[i], target[i])) return false;
  return true;
}

/** The glob's literal folder prefix as a path (`/workspace/src/*.ts` → `/workspace/src`). */
export function literalPrefix(g: GlobPath): string | null {
  if (g.any) return null;
  const lit: string[] = [];
  for (const s of g.segments) {
    if (!('literal' in s)) break;
    lit.push(s.literal);
  }
  return `/${lit.join('/')}`;
}
