/**
 * Archive path normalisation and the small, safe glob matcher used for `binaryPath`. Pure.
 */
import { AppError } from '@/lib/core/errors';
import { globAtoms, matchWildcard } from '@/lib/core/wildcard';

const MAX_GLOB_LENGTH = 512;

/** `./a//b/` → `a/b`; null when unsafe (absolute, `..`, NUL, drive letter). */
export function normalizeArchivePath(p: string): string | null {
  if (p.includes('\0') || p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.includes('\\')) return null;
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return null;
    parts.push(seg);
  }
  return parts.length ? parts.join('/') : null;
}

export function baseName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

export function dirSegments(p: string): string[] {
  return p.split('/').slice(0, -1);
}

/**
 * Compile a small, safe glob: `**` as a whole segment (any depth, including none), `*` (within
 * a segment), `?` (one char, not `/`); everything else literal. No braces, classes or
 * negation, and no regular expressions — segments are matched by the shared wildcard matcher
 * and `**` memoised, so matching is polynomial, never exponential.
 */
export function compileGlob(glob: string): (path: string) => boolean {
  if (glob.length === 0 || glob.length > MAX_GLOB_LENGTH || glob.includes('\0')) {
    throw new AppError('invalid_spec', 'binaryPath must be a non-empty glob of at most 512 characters.');
  }
  let g = glob.trim();
  while (g.startsWith('./')) g = g.slice(2);
  if (g === '' || g.startsWith('/') || g.split('/').includes('..') || g.includes('\0')) {
    throw new AppError('invalid_spec', `binaryPath "${glob}" must be relative to the archive root without "..".`);
  }
  const pat = g
    .split('/')
    .filter((x) => x !== '')
    .map((x) => (x.includes('**') && x !== '**' ? x.replace(/\*+/g, '*') : x));
  const atoms = pat.map(globAtoms);
  return (path: string) => {
    const segs = path.split('/').filter((x) => x !== '' && x !== '.');
    const memo = new Map<number, boolean>();
    const go = (i: number, j: number): boolean => {
      const key = i * (segs.length + 1) + j;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      let r: boolean;
      if (i === pat.length) r = j === segs.length;
      else if (pat[i] === '**') r = go(i + 1, j) || (j < segs.length && go(i, j + 1));
      else r = j < segs.length && matchWildcard(atoms[i], segs[j]) && go(i + 1, j + 1);
      memo.set(key, r);
      return r;
    };
    return go(0, 0);
  };
}

/** One-off glob match (see `compileGlob`). */
export function globMatch(glob: string, path: string): boolean {
  return compileGlob(glob)(path);
}
