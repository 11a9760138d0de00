/**
 * Containment of skill folders. Workspace, project, extra and bundled skills
 * must resolve inside their root (workspace/project/extra may also resolve inside an allowed
 * symlink target); managed and personal roots may hold symlinked skill folders (Skilldock's own
 * managed store links to version folders). For every kind, a symlinked SKILL.md must resolve
 * inside its own skill folder. Warning codes follow OpenClaw: a symlinked candidate is a
 * "symlink-escape", an escape through a symlinked parent a "path-escape" (bundled variants apart).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { ContainmentWarning, SourceKind } from '../types';
import { type Candidate, SKILL_FILE } from './candidates';

export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

export type ContainmentResult = { ok: true; realDir: string } | { ok: false; code: ContainmentWarning; path: string; realPath: string };

// process-wide: a constant table, never written
const LINKABLE_FOLDERS: ReadonlySet<SourceKind> = new Set(['managed', 'personal']);

function escapeCode(kind: SourceKind, candidateIsSymlink: boolean): ContainmentWarning {
  if (kind === 'bundled') return candidateIsSymlink ? 'bundled-symlink-escape' : 'bundled-root-escape';
  return candidateIsSymlink ? 'symlink-escape' : 'path-escape';
}

/** Realpaths of the allowed symlink targets that exist (a missing one allows nothing). */
export async function resolveAllowedTargets(targets: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const t of targets) {
    try {
      out.push(await fsp.realpath(t));
    } catch {
      // a target that does not exist cannot contain anything
    }
  }
  return out;
}

export async function checkContainment(kind: SourceKind, rootReal: string, cand: Candidate, allowedTargets: readonly string[]): Promise<ContainmentResult> {
  // Without a symlink on the way, the real path is the root's real path plus the relative one: no syscall.
  const realDir = cand.viaSymlink ? await fsp.realpath(cand.dir) : path.join(rootReal, ...cand.relDir.split('/'));
  if (!LINKABLE_FOLDERS.has(kind) && !isInside(rootReal, realDir)) {
    const allowed = kind !== 'bundled' && allowedTargets.some((t) => isInside(t, realDir));
    if (!allowed) return { ok: false, code: escapeCode(kind, cand.dirIsSymlink), path: cand.dir, realPath: realDir };
  }
  if (cand.skillMd.isSymbolicLink()) {
    const mdPath = path.join(cand.dir, SKILL_FILE);
    const realMd = await fsp.realpath(mdPath);
    if (!isInside(realDir, realMd) || realMd === realDir) {
      return { ok: false, code: escapeCode(kind, true), path: mdPath, realPath: realMd };
    }
  }
  return { ok: true, realDir };
}

export function describeEscape(kind: SourceKind, r: Extract<ContainmentResult, { ok: false }>, rootPath: string): string {
  const what = r.path.endsWith(SKILL_FILE) ? 'SKILL.md resolves outside its skill folder' : `the skill folder resolves outside the ${kind} root ${rootPath}`;
  return `Skipped ${r.path}: ${what} (${r.realPath}).`;
}
