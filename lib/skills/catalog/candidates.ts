/**
 * Finding skill folders under one root: `root/<skill>/SKILL.md` and, per grouping level,
 * `root/<group>/<skill>/SKILL.md`. A folder without SKILL.md is a group; dot-folders and
 * node_modules are skipped at every level. Nothing here follows a path outside what readdir saw.
 */
import type { BigIntStats, Dirent, Stats } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../../core/concurrency';

export const SKILL_FILE = 'SKILL.md';
const PROBE_CONCURRENCY = 16;

export interface Candidate {
  /** Folder path relative to the root, forward slashes ("name" or "group/name"). */
  relDir: string;
  /** Absolute path as seen through the root (symlinks not resolved). */
  dir: string;
  group?: string;
  /** The skill folder itself is a symbolic link. */
  dirIsSymlink: boolean;
  /** Some folder between the root and the skill (the skill included) is a symbolic link: its realpath must be resolved. */
  viaSymlink: boolean;
  /** lstat of SKILL.md (a symlinked SKILL.md is resolved by the containment check). */
  skillMd: Stats;
  /** The folder's identity (followed), taken by this discovery before SKILL.md was probed; absent when it was not taken. */
  dirIdentity?: string;
}

/** Receives what a walk looks into (CandidateCache's WalkTrace). */
export interface WalkTrace {
  /** A folder about to be listed or probed; returns its identity. */
  folder(dir: string, st: BigIntStats): string;
  /** The walk met something folder identities cannot vouch for. */
  unkeepable(): void;
}

export function isSkippedDirName(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

function isMissing(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The entry as a folder: a real directory, or a symlink whose target is one; null otherwise. */
async function asFolder(parent: string, e: Dirent, trace?: WalkTrace): Promise<{ isSymlink: boolean; identity?: string } | null> {
  if (!e.isDirectory() && !e.isSymbolicLink()) return null;
  const isSymlink = !e.isDirectory();
  if (!isSymlink && !trace) return { isSymlink };
  try {
    const st = await fsp.stat(path.join(parent, e.name), { bigint: true });
    if (st.isDirectory()) return { isSymlink, identity: trace?.folder(path.join(parent, e.name), st) };
  } catch {
    // dangling link
  }
  if (isSymlink) trace?.unkeepable();
  return null;
}

async function probeSkillMd(dir: string): Promise<Stats | null> {
  try {
    return await fsp.lstat(path.join(dir, SKILL_FILE));
  } catch (e) {
    if (isMissing(e)) return null;
    throw e;
  }
}

/**
 * Every skill folder under `rootPath`, sorted by relDir (so limits cut deterministically).
 * Throws only when the root itself cannot be read; a folder below it that cannot be read is
 * passed to `onUnreadable` and skipped. `trace` records the identity of every folder looked into,
 * each taken before it is listed or probed (CandidateCache).
 */
export async function findCandidates(
  rootPath: string,
  groupDepth: number,
  onUnreadable: (dir: string, error: unknown) => void = () => undefined,
  trace?: WalkTrace,
): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const unreadable = (dir: string, e: unknown) => {
    trace?.unkeepable();
    onUnreadable(dir, e);
  };
  async function walk(absDir: string, relParts: string[], viaSymlink: boolean, depthLeft: number, isRoot: boolean): Promise<void> {
    let entries: Dirent[];
    try {
      if (isRoot && trace) trace.folder(absDir, await fsp.stat(absDir, { bigint: true }));
      entries = await fsp.readdir(absDir, { withFileTypes: true });
    } catch (e) {
      if (isRoot) throw e;
      unreadable(absDir, e);
      return;
    }
    const dirs = entries.filter((e) => !isSkippedDirName(e.name));
    await mapLimit(dirs, PROBE_CONCURRENCY, async (e) => {
      const folder = await asFolder(absDir, e, trace);
      if (!folder) return;
      const dir = path.join(absDir, e.name);
      const parts = [...relParts, e.name];
      const linked = viaSymlink || folder.isSymlink;
      let skillMd: Stats | null;
      try {
        skillMd = await probeSkillMd(dir);
      } catch (e) {
        unreadable(dir, e);
        return;
      }
      if (skillMd) {
        out.push({
          relDir: parts.join('/'),
          dir,
          group: relParts.length > 0 ? relParts.join('/') : undefined,
          dirIsSymlink: folder.isSymlink,
          viaSymlink: linked,
          skillMd,
          ...(folder.identity ? { dirIdentity: folder.identity } : {}),
        });
      } else if (depthLeft > 0) {
        await walk(dir, parts, linked, depthLeft - 1, false);
      }
    });
  }
  await walk(rootPath, [], false, Math.max(0, groupDepth), true);
  out.sort((a, b) => (a.relDir < b.relDir ? -1 : a.relDir > b.relDir ? 1 : 0));
  return out;
}
