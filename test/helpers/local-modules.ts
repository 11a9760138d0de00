// Resolving the repository's own module specifiers the way tsconfig does (`@/x` is the repository's
// root, relative paths from the importing file, index files and the extensions on disk), for the
// tests that walk the import graph.
import fs from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../..');
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];

/** The file a local specifier names, or null for a package (or a local path not on disk). */
export function resolveLocal(from: string, spec: string): string | null {
  let base: string;
  if (spec.startsWith('@/')) base = path.join(REPO_ROOT, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null;
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  // `./x.js` written for ESM resolution names `./x.ts` on disk.
  if (/\.m?js$/.test(base)) candidates.push(base.replace(/\.(m?)js$/, '.$1ts'));
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? null;
}

/** Every TypeScript source file under `dir` (declaration files left out; test files too, unless asked for). */
export function sourceFilesUnder(dir: string, opts: { tests?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFilesUnder(p, opts));
    else if (/\.(m?ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') && (opts.tests || !/\.test\.tsx?$/.test(e.name))) out.push(p);
  }
  return out;
}
