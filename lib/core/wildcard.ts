/**
 * The one wildcard matcher (`*`, `?`, literal characters and "token" atoms that match one of a few
 * short words at a position). It advances the set of reachable positions atom by atom, so the
 * cost is at most atoms × length × the longest token, whatever the pattern: no backtracking. Pure.
 */

export type WildcardAtom =
  | { kind: 'char'; ch: string }
  | { kind: 'any' }
  | { kind: 'star' }
  /** A token: `ends` gives every position where a match starting at `at` may end (each > at). */
  | { kind: 'token'; ends: (s: string, at: number) => Iterable<number> };

export interface WildcardOptions {
  /** Compare literal characters ignoring case. */
  caseInsensitive?: boolean;
}

/** Atoms of a plain `*`/`?` glob, every other character literal. */
export function globAtoms(glob: string): WildcardAtom[] {
  return [...glob].map((ch): WildcardAtom => (ch === '*' ? { kind: 'star' } : ch === '?' ? { kind: 'any' } : { kind: 'char', ch }));
}

/** True when the whole of `str` matches the atoms. */
export function matchWildcard(atoms: readonly WildcardAtom[], str: string, opts: WildcardOptions = {}): boolean {
  const chars = [...str];
  const n = chars.length;
  const fold = opts.caseInsensitive ? (c: string) => c.toLowerCase() : (c: string) => c;
  const folded = opts.caseInsensitive ? chars.map(fold) : chars;
  let reach = new Uint8Array(n + 1);
  reach[0] = 1;
  // Token atoms see the string as UTF-16; map code-point indexes to offsets and back.
  const offsets: number[] = [];
  for (let i = 0, off = 0; i <= n; i++) {
    offsets.push(off);
    if (i < n) off += chars[i].length;
  }
  const indexOfOffset = new Map(offsets.map((o, i) => [o, i]));
  for (const atom of atoms) {
    const next = new Uint8Array(n + 1);
    let any = false;
    if (atom.kind === 'star') {
      let on = 0;
      for (let j = 0; j <= n; j++) {
        on |= reach[j];
        next[j] = on;
      }
      any = on === 1;
    } else if (atom.kind === 'token') {
      for (let j = 0; j <= n; j++) {
        if (!reach[j]) continue;
        for (const end of atom.ends(str, offsets[j])) {
          const k = indexOfOffset.get(end);
          if (k !== undefined && k > j) {
            next[k] = 1;
            any = true;
          }
        }
      }
    } else {
      const want = atom.kind === 'char' ? fold(atom.ch) : '';
      for (let j = 0; j < n; j++) {
        if (reach[j] && (atom.kind === 'any' || folded[j] === want)) {
          next[j + 1] = 1;
          any = true;
        }
      }
    }
    if (!any) return false;
    reach = next;
  }
  return reach[n] === 1;
}
