import fs from 'node:fs/promises';
import path from 'node:path';
import { localModulesOf } from './scan';
import type { DepDiagnostic, FileToScan } from './types';

/** Reads a skill's script files from disk for `scanSkillFiles`. */
export interface ReadSkillFilesOptions {
  /** Folder levels below `scripts/` that are descended into; default 4. */
  maxDepth?: number;
  /** Default 500. */
  maxFiles?: number;
  /** Larger files are skipped with a diagnostic; default 512 KiB. */
  maxFileBytes?: number;
}

export interface SkillFiles {
  files: FileToScan[];
  /** Module names the skill provides (every `x.py` and folder seen), for `scanSkillFiles({ localModules })`. */
  localModules: string[];
  diagnostics: DepDiagnostic[];
}

// process-wide: a constant table, never written
const SKIP_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', '.mypy_cache', '.pytest_cache']);
// process-wide: a constant table, never written
const SCRIPT_EXT = new Set(['.py', '.pyw', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx', '.sh', '.bash']);

const inside = (root: string, p: string) => p === root || p.startsWith(root + path.sep);

/**
 * `scripts/` recursively (to `maxDepth`) plus the script files at the top of the skill folder.
 * Symlinks are followed only when they stay inside the skill folder; node_modules, .git and
 * __pycache__ are skipped. Never throws for a missing `scripts/`.
 */
export async function readSkillFiles(dir: string, opts: ReadSkillFilesOptions = {}): Promise<SkillFiles> {
  const maxDepth = opts.maxDepth ?? 4;
  const maxFiles = opts.maxFiles ?? 500;
  const maxBytes = opts.maxFileBytes ?? 512 * 1024;
  const root = await fs.realpath(dir);
  const files: FileToScan[] = [];
  /** Every file and folder seen (folders as `dir/`), for the local-module names. */
  const seenPaths: string[] = [];
  const diagnostics: DepDiagnostic[] = [];
  const visitedDirs = new Set<string>();
  let limitReported = false;

  /** Resolves an entry; null when it is a symlink leaving the skill folder (reported) or dangling. */
  const resolveEntry = async (abs: string, rel: string): Promise<{ real: string; stat: import('node:fs').Stats } | null> => {
    try {
      const real = await fs.realpath(abs);
      if (!inside(root, real)) {
        diagnostics.push({ key: 'scan', file: rel, message: `"${rel}" is a symlink that leaves the skill folder; it is not scanned` });
        return null;
      }
      return { real, stat: await fs.stat(real) };
    } catch {
      return null;
    }
  };

  const readFile = async (real: string, rel: string, size: number) => {
    if (files.length >= maxFiles) {
      if (!limitReported) diagnostics.push({ key: 'scan', file: rel, message: `more than ${maxFiles} script files; the rest are not scanned` });
      limitReported = true;
      return;
    }
    if (size > maxBytes) {
      diagnostics.push({
        key: 'scan',
        file: rel,
        message: `"${rel}" is ${Math.ceil(size / 1024)} KiB, over the ${Math.round(maxBytes / 1024)} KiB scan limit; it is not scanned`,
      });
      return;
    }
    const ext = path.extname(rel).toLowerCase();
    if (ext !== '' && !SCRIPT_EXT.has(ext)) return;
    const buf = await fs.readFile(real);
    if (buf.subarray(0, 8192).includes(0)) return; // binary
    const content = buf.toString('utf8');
    if (ext === '' && !content.startsWith('#!')) return; // extensionless: only scripts with a shebang
    files.push({ path: rel, content });
  };

  const walk = async (absDir: string, relDir: string, depth: number) => {
    const realDir = await fs.realpath(absDir);
    if (visitedDirs.has(realDir)) return;
    visitedDirs.add(realDir);
    const entries = (await fs.readdir(absDir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const rel = `${relDir}/${e.name}`;
      const abs = path.join(absDir, e.name);
      const r = await resolveEntry(abs, rel);
      if (!r) continue;
      if (r.stat.isDirectory()) {
        if (SKIP_DIRS.has(e.name)) continue;
        seenPaths.push(`${rel}/`);
        if (depth < maxDepth) await walk(abs, rel, depth + 1);
      } else if (r.stat.isFile()) {
        seenPaths.push(rel);
        await readFile(r.real, rel, r.stat.size);
      }
    }
  };

  const scripts = path.join(root, 'scripts');
  const scriptsEntry = await resolveEntry(scripts, 'scripts');
  if (scriptsEntry?.stat.isDirectory()) await walk(scripts, 'scripts', 0);

  for (const e of (await fs.readdir(root, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name === 'SKILL.md' || e.name === 'scripts') continue;
    const r = await resolveEntry(path.join(root, e.name), e.name);
    if (!r) continue;
    if (r.stat.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) seenPaths.push(`${e.name}/`);
    } else if (r.stat.isFile()) {
      seenPaths.push(e.name);
      await readFile(r.real, e.name, r.stat.size);
    }
  }
  return { files, localModules: [...localModulesOf(seenPaths)].sort(), diagnostics };
}
