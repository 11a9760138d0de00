/**
 * Choosing which archive entries are the binaries to install. Pure: works on an entry listing
 * (with the first bytes of each file) produced by the extractor; never touches the disk.
 */

import { AppError } from '@/lib/core/errors';
import { hasShebang, isElf } from '../elf/elf';
import { baseName, compileGlob, dirSegments, normalizeArchivePath } from './glob';
import { type Resolved, resolveLinks } from './links';
import type { ArchiveEntry, BinaryKind, ChooseBinariesOptions, ChooseBinariesResult, ChosenBinary } from './types';

export { compileGlob, globMatch, normalizeArchivePath } from './glob';
export type {
  ArchiveEntry,
  ArchiveEntryType,
  BinaryKind,
  ChooseBinariesOptions,
  ChooseBinariesResult,
  ChosenBinary,
  SkippedEntry,
} from './types';

/** Directories whose files are never binary candidates (rule 3). */
// process-wide: a constant table, never written
const NON_BINARY_DIRS = new Set([
  'man',
  'docs',
  'doc',
  'contrib',
  'completions',
  'completion',
  'complete',
  'autocomplete',
  'examples',
  'example',
  'tests',
  'test',
  'licenses',
  'license',
  'licences',
]);
/** Extensions that are never executables even with +x. */
const NEVER_BINARY = /\.(so(\.\d+)*|a|o|ko|dylib|dll|deb|rpm|apk|txt|md|1|5|8|gz|zip|json|yaml|yml|toml|html|ps1|bat|cmd|bash|zsh|fish|sha256|sig|pem|asc)$/i;

function kindOf(e: ArchiveEntry): BinaryKind {
  if (!e.head) return 'unknown';
  if (isElf(e.head)) return 'elf';
  if (hasShebang(e.head)) return 'script';
  return 'unknown';
}

function isExecutable(mode: number): boolean {
  return (mode & 0o111) !== 0;
}

function hasExtension(name: string): boolean {
  return name.lastIndexOf('.') > 0;
}

/**
 * Pick the binaries of an extracted release archive, following these rules in order:
 * 1. `binaryPath` glob → exactly the matching regular files (none → `no_binary`);
 * 2. direct matches `tool`, `tool.exe`, `tool.appimage` (case-insensitive);
 * 3. else ELF files (Linux) with +x or no extension outside man/docs/… directories;
 *    non-ELF executables (install.sh) are listed as skipped, never failing;
 * zero chosen → `no_binary` with the file list. Links are resolved within the archive to
 * a regular file, or skipped when they point outside it.
 */
export function chooseBinaries<E extends ArchiveEntry>(entries: readonly E[], opts: ChooseBinariesOptions): ChooseBinariesResult<E> {
  const linux = opts.os === 'linux';
  const { items, skipped } = resolveLinks(entries);
  const chosen: ChosenBinary<E>[] = [];
  /** Normalized archive path of the item (the link's path when reached through a link). */
  const itemPath = new Map<ChosenBinary<E>, string>();
  const make = (it: Resolved<E>, rule: ChosenBinary['rule']): ChosenBinary<E> => {
    const file = it.file!;
    const isLink = it.via !== file;
    const c: ChosenBinary<E> = {
      ...file,
      installName: baseName(it.path),
      ...(isLink ? { linkPath: it.path } : {}),
      kind: kindOf(file),
      rule,
    };
    itemPath.set(c, it.path);
    return c;
  };
  const fail = (why: string): never => {
    const files = items.map((i) => i.path);
    throw new AppError(
      'no_binary',
      `${why} Files in the archive: ${files.slice(0, 20).join(', ')}${files.length > 20 ? `, … (${files.length} in all)` : ''}.`,
      {
        details: { files: files.slice(0, 500), fileCount: files.length, skipped: skipped.slice(0, 500) },
        hint: 'Set binaryPath (a glob such as "*/bin/tool") or binaryName for this package.',
      },
    );
  };
  const finish = (): ChooseBinariesResult<E> => {
    // One install name → one file: keep the shallowest (then lexicographically first).
    const byName = new Map<string, ChosenBinary<E>>();
    const order = [...chosen].sort((a, b) => depth(itemPath.get(a)!) - depth(itemPath.get(b)!) || cmp(itemPath.get(a)!, itemPath.get(b)!));
    const keptSet = new Set<ChosenBinary<E>>();
    for (const c of order) {
      const key = c.installName.toLowerCase();
      const prev = byName.get(key);
      if (prev) {
        skipped.push({ path: itemPath.get(c)!, reason: `same name as ${itemPath.get(prev)!}` });
        continue;
      }
      byName.set(key, c);
      keptSet.add(c);
    }
    const keptPaths = new Set([...keptSet].map((c) => itemPath.get(c)!));
    const skippedPaths = new Set(skipped.map((s) => s.path));
    for (const it of items) {
      if (!keptPaths.has(it.path) && !skippedPaths.has(it.path)) skipped.push({ path: it.path, reason: it.reason ?? reasonFor(it) });
    }
    const seen = new Set<string>();
    const uniqueSkipped = skipped.filter((s) => {
      if (seen.has(s.path)) return false;
      seen.add(s.path);
      return true;
    });
    return { chosen: chosen.filter((c) => keptSet.has(c)), skipped: uniqueSkipped };
  };
  const reasonFor = (it: Resolved<E>): string => {
    const f = it.file!;
    const name = baseName(it.path);
    if (dirSegments(it.path).some((d) => NON_BINARY_DIRS.has(d.toLowerCase()))) return 'documentation/completion directory';
    const k = kindOf(f);
    if (linux && k === 'script') return 'script, not an ELF binary';
    if (linux && f.head && k !== 'elf' && isExecutable(f.mode)) return 'executable but not an ELF binary';
    if (NEVER_BINARY.test(name)) return 'not an executable file type';
    return 'not executable';
  };

  // Rule 1: binaryPath glob.
  if (opts.binaryPath !== undefined && opts.binaryPath.trim() !== '') {
    const match = compileGlob(opts.binaryPath);
    const onName = !opts.binaryPath.includes('/');
    for (const it of items) {
      if (!match(onName ? baseName(it.path) : it.path)) continue;
      if (!it.file) {
        skipped.push({ path: it.path, reason: it.reason ?? 'not a regular file' });
        continue;
      }
      chosen.push(make(it, 'binary_path'));
    }
    if (chosen.length === 0) fail(`binaryPath "${opts.binaryPath}" matches no regular file.`);
    return finish();
  }

  // Rule 2: direct matches.
  const tool = opts.toolName.toLowerCase();
  const direct = new Set([tool, `${tool}.exe`, `${tool}.appimage`]);
  for (const it of items) {
    if (!direct.has(baseName(it.path).toLowerCase())) continue;
    if (!it.file) {
      skipped.push({ path: it.path, reason: it.reason ?? 'not a regular file' });
      continue;
    }
    if (dirSegments(it.path).some((d) => NON_BINARY_DIRS.has(d.toLowerCase()))) continue; // e.g. completions/bash/tool
    const k = kindOf(it.file);
    if (linux && it.file.head && k !== 'elf') {
      skipped.push({ path: it.path, reason: k === 'script' ? 'script, not an ELF binary' : 'not an ELF binary' });
      continue;
    }
    chosen.push(make(it, 'direct'));
  }
  if (chosen.length > 0) return finish();

  // Rule 3: candidates.
  for (const it of items) {
    if (!it.file) continue;
    const name = baseName(it.path);
    if (dirSegments(it.path).some((d) => NON_BINARY_DIRS.has(d.toLowerCase()))) continue;
    if (NEVER_BINARY.test(name)) continue;
    const f = it.file;
    const looksExec = isExecutable(f.mode) || (it.via !== f && isExecutable(it.via.mode)) || !hasExtension(name) || /\.(exe|appimage)$/i.test(name);
    if (!looksExec) continue;
    const k = kindOf(f);
    if (linux) {
      if (k === 'elf' || (k === 'unknown' && !f.head)) chosen.push(make(it, 'candidate'));
      else if (k === 'script') skipped.push({ path: it.path, reason: 'script, not an ELF binary' });
      else if (isExecutable(f.mode)) skipped.push({ path: it.path, reason: 'executable but not an ELF binary' });
    } else if (isExecutable(f.mode) || /\.exe$/i.test(name)) {
      chosen.push(make(it, 'candidate'));
    }
  }
  // A link and its target are the same binary: keep one (the shorter name, e.g. `tool` over `tool-1.2.3`).
  const byTarget = new Map<string, ChosenBinary<E>>();
  for (const c of [...chosen]) {
    const key = normalizeArchivePath(c.path) ?? c.path;
    const prev = byTarget.get(key);
    if (!prev) {
      byTarget.set(key, c);
      continue;
    }
    const [keep, drop] = c.installName.length < prev.installName.length ? [c, prev] : [prev, c];
    byTarget.set(key, keep);
    chosen.splice(chosen.indexOf(drop), 1);
    skipped.push({ path: itemPath.get(drop)!, reason: `same file as ${itemPath.get(keep)!}` });
  }
  if (chosen.length === 0) fail('No executable found in the archive.');
  return finish();
}

function depth(p: string): number {
  return p.split('/').length;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const INSTALL_SUFFIX = /\.(exe|appimage)$/i;

/**
 * Canonical package name: a single installed binary whose name differs
 * from the repo name wins (`cli/cli` → `gh`); otherwise the repo name.
 */
export function canonicalName(repoName: string, chosen: readonly Pick<ChosenBinary, 'installName'>[]): string {
  if (chosen.length !== 1) return repoName;
  const name = chosen[0].installName.replace(INSTALL_SUFFIX, '');
  if (name === '' || name.toLowerCase() === repoName.toLowerCase()) return repoName;
  return name;
}
