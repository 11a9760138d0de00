import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../core/errors';

/**
 * Parses CSV as Python's `csv` module writes it (the format of a wheel's RECORD): comma separated,
 * fields optionally in double quotes, `""` for a quote inside quotes, quoted fields may hold commas
 * and newlines, rows end with `\n` or `\r\n`. Blank lines are dropped.
 */
export function parsePipRecord(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let fieldStarted = false;
  const endField = () => {
    row.push(field);
    field = '';
    fieldStarted = false;
  };
  const endRow = () => {
    endField();
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (c === ',') endField();
    else if (c === '\n') endRow();
    else if (c === '\r' && text[i + 1] === '\n') {
      endRow();
      i++;
    } else {
      field += c;
      fieldStarted = true;
    }
  }
  if (field !== '' || fieldStarted || row.length > 0) endRow();
  return rows;
}

/** The file paths a RECORD lists (its first column). */
export function pipRecordPaths(text: string): string[] {
  return parsePipRecord(text)
    .map((r) => r[0])
    .filter((p): p is string => typeof p === 'string' && p !== '');
}

// pip --target installs into a temporary `home` scheme and moves purelib to the target root and the
// scheme's data dirs next to it, so RECORD names console scripts `../../bin/x` (and data files
// `../../share/…`) relative to the package root; those map back inside the target.
const HOME_SCHEME_DIR = /^\.\.\/\.\.\/((?:bin|share|include|etc)\/.+)$/;

function refuse(target: string, rel: string, why: string): AppError {
  return new AppError('invalid_state', `RECORD lists "${rel}", ${why}; refusing to remove anything. Remove the package by hand.`, {
    details: { manager: 'pip', path: rel, target },
  });
}

/** Resolves one RECORD path against the target dir; throws when it would leave the target. */
export function resolvePipRecordPath(target: string, rel: string): string {
  const root = path.resolve(target);
  if (rel.includes('\0')) throw refuse(root, rel, 'which contains a NUL byte');
  if (path.isAbsolute(rel) || /^[A-Za-z]:[\\/]/.test(rel) || rel.startsWith('\\')) throw refuse(root, rel, 'an absolute path');
  const mapped = HOME_SCHEME_DIR.exec(rel)?.[1] ?? rel;
  const abs = path.resolve(root, mapped);
  const back = path.relative(root, abs);
  if (back === '' || back.startsWith('..') || path.isAbsolute(back)) throw refuse(root, rel, 'which is outside the runtime dir');
  return abs;
}

async function realDir(dir: string, cache: Map<string, string | null>): Promise<string | null> {
  if (!cache.has(dir)) cache.set(dir, await fs.promises.realpath(dir).catch(() => null));
  return cache.get(dir) ?? null;
}

function inside(root: string, p: string): boolean {
  const back = path.relative(root, p);
  return back !== '' && !back.startsWith('..') && !path.isAbsolute(back);
}

/**
 * Resolves every RECORD path and checks, before anything is deleted, that each one stays inside the
 * target also after symlinks in its parent directories are followed.
 */
export async function planPipRemoval(target: string, rels: readonly string[]): Promise<string[]> {
  const root = path.resolve(target);
  const realRoot = await fs.promises.realpath(root);
  const cache = new Map<string, string | null>();
  const out: string[] = [];
  for (const rel of rels) {
    const abs = resolvePipRecordPath(root, rel);
    const parent = await realDir(path.dirname(abs), cache);
    if (parent !== null && parent !== realRoot && !inside(realRoot, parent)) throw refuse(root, rel, 'which leads outside the runtime dir through a symlink');
    out.push(abs);
  }
  return out;
}

async function isPlainDir(p: string): Promise<boolean> {
  const st = await fs.promises.lstat(p).catch(() => undefined);
  return st?.isDirectory() === true;
}

/** Byte-code caches of removed modules, including ones other interpreters wrote at import time. */
async function pycacheSiblings(pyFiles: readonly string[]): Promise<string[]> {
  const byCache = new Map<string, Set<string>>();
  for (const f of pyFiles) {
    const cacheDir = path.join(path.dirname(f), '__pycache__');
    if (!byCache.has(cacheDir)) byCache.set(cacheDir, new Set());
    byCache.get(cacheDir)!.add(path.basename(f, '.py'));
  }
  const out: string[] = [];
  for (const [cacheDir, stems] of byCache) {
    if (!(await isPlainDir(cacheDir))) continue;
    for (const e of await fs.promises.readdir(cacheDir).catch(() => [] as string[])) {
      const stem = e.split('.')[0];
      if (e.endsWith('.pyc') && stems.has(stem)) out.push(path.join(cacheDir, e));
    }
  }
  return out;
}

/**
 * Removes planned files (never directories), their byte-code caches, then the directories left
 * empty, up to but excluding the target. Returns what was removed, relative to the target.
 */
export async function removePipFiles(target: string, files: readonly string[]): Promise<string[]> {
  const root = path.resolve(target);
  const removed: string[] = [];
  const dirs = new Set<string>();
  const unlink = async (f: string) => {
    const st = await fs.promises.lstat(f).catch(() => undefined);
    if (!st || st.isDirectory()) return;
    await fs.promises.unlink(f);
    removed.push(path.relative(root, f));
    dirs.add(path.dirname(f));
  };
  for (const f of files) await unlink(f);
  for (const f of await pycacheSiblings(files.filter((f) => f.endsWith('.py')))) await unlink(f);
  const candidates = new Set<string>();
  for (const d of dirs) {
    for (let cur = d; inside(root, cur); cur = path.dirname(cur)) candidates.add(cur);
  }
  // Deepest first, so a parent is tried only after its children.
  for (const d of [...candidates].sort((a, b) => b.length - a.length)) {
    try {
      await fs.promises.rmdir(d);
      removed.push(path.relative(root, d) + '/');
    } catch {
      /* not empty, or already gone */
    }
  }
  return removed;
}
