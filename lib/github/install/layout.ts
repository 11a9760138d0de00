import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { runtimeLayout } from '../../runtime/dir';

/** {runtimeDir}/github: `<pkg>/<version>/` immutable folders, `<pkg>/current` → version, `.tmp/` scratch. */
export interface GithubLayout {
  root: string;
  tmp: string;
  /** {runtimeDir}/bin, on PATH: one symlink per binary → ../github/<pkg>/current/<binary>. */
  bin: string;
}

export function githubLayout(runtimeDir: string): GithubLayout {
  const rt = runtimeLayout(runtimeDir);
  const root = path.join(rt.root, 'github');
  return { root, tmp: path.join(root, '.tmp'), bin: rt.bin };
}

export function ensureGithubLayout(l: GithubLayout): void {
  for (const d of [l.root, l.tmp, l.bin]) fs.mkdirSync(d, { recursive: true, mode: 0o755 });
}

/** A tag as a folder name: letters, digits and `._+-`, never `.`/`..` or hidden. */
export function versionDirName(tag: string): string {
  const safe = tag
    .replace(/[^A-Za-z0-9._+-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 128);
  if (!safe || safe === '.' || safe === '..') throw new AppError('invalid_spec', `The tag "${tag}" cannot name a folder.`);
  return safe;
}

export const PACKAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/;
export function packageDir(l: GithubLayout, name: string): string {
  if (!PACKAGE_NAME.test(name)) throw new AppError('invalid_spec', `"${name}" is not a package name.`);
  return path.join(l.root, name);
}

/** A fresh scratch folder on the same filesystem as the install (so renames are atomic, never /tmp). */
export function scratchDir(l: GithubLayout): string {
  const dir = path.join(l.tmp, randomUUID());
  fs.mkdirSync(dir, { recursive: false, mode: 0o700 });
  return dir;
}

/** The version a package's `current` link points at, or null. */
export function currentVersion(l: GithubLayout, name: string): string | null {
  try {
    return path.basename(fs.readlinkSync(path.join(packageDir(l, name), 'current')));
  } catch {
    return null;
  }
}

/** The bin/ link target of a package binary (relative, so the runtime dir can move). */
export const binTarget = (name: string, binary: string): string => path.join('..', 'github', name, 'current', binary);

/** Which package owns bin/<binary>, from its link target; null when absent or not ours. */
export function binOwner(l: GithubLayout, binary: string): string | null {
  try {
    const target = fs.readlinkSync(path.join(l.bin, binary));
    const m = /^\.\.\/github\/([^/]+)\/current\/[^/]+$/.exec(target);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}
