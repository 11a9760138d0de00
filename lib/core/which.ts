import fs from 'node:fs';
import path from 'node:path';

/** Splits a PATH-style list, dropping empty entries (an empty entry would mean the current directory). */
export function splitPathList(value: string | undefined): string[] {
  return (value ?? '').split(path.delimiter).filter((p) => p !== '');
}

/** Joins entries in order, keeping the first occurrence of each and dropping empty ones. */
export function joinPathList(entries: readonly (string | undefined)[]): string {
  return [...new Set(entries.filter((e): e is string => !!e))].join(path.delimiter);
}

/** A regular file (symlinks followed) that this process may execute. */
export function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) return false;
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * `command -v` without a shell: the first executable `name` on `pathList`, as an absolute path, or null.
 * A name containing '/' is checked as given. Relative PATH entries are ignored.
 */
export function which(name: string, pathList: string | undefined = process.env.PATH): string | null {
  if (!name || name.includes('\0')) return null;
  if (name.includes('/')) return isExecutableFile(name) ? path.resolve(name) : null;
  for (const dir of splitPathList(pathList)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
