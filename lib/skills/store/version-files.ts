/**
 * Looking into stored versions: one file (contained, no symlinks, size-capped), the diff of
 * two versions (statuses + unified patches of text files), and drift of the active version
 * against the hashes recorded at install (shown as "modified locally").
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { AppError } from '@/lib/core/errors';
import { contentHash, listSkillFiles, SkillFilesError } from '../files';
import type { SkillFile } from '../types';
import { findVersion, type RecordedFile, readManifest, validateSlug, validateVersion, versionDir } from './manifest';
import { activeVersion, resolveStore, type SkillStore } from './store-state';

export const MAX_READ_BYTES = 2 * 1024 * 1024;
export const MAX_PATCH_BYTES = 512 * 1024;
/** Per file: more lines than this on either side, or more line edits than MAX_EDIT_LENGTH, is "too large to diff". */
export const MAX_DIFF_LINES = 20_000;
export const MAX_EDIT_LENGTH = 5_000;
/** Per diff: the patches of one comparison stop growing past this many bytes of input; later files are "too large". */
export const MAX_DIFF_INPUT_BYTES = 8 * 1024 * 1024;
/** A bound on the diff's own work per file, whatever the edit count. */
const DIFF_TIMEOUT_MS = 2_000;

export type FileStatus = 'added' | 'removed' | 'modified' | 'unchanged';
export interface FileDiff {
  path: string;
  status: FileStatus;
  sizeA?: number;
  sizeB?: number;
}
export type TextDiff = { path: string; patch: string } | { path: string; binary: true } | { path: string; tooLarge: true };
export interface VersionDiff {
  a: string;
  b: string;
  files: FileDiff[];
  textDiffs: TextDiff[];
}

export interface DriftReport {
  version: string;
  recordedHash: string;
  /** Null when the folder cannot be hashed (e.g. a symlink was planted in it). */
  diskHash: string | null;
  drifted: boolean;
  /** Paths added, removed or modified since install. */
  changed: string[];
}

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

function checkRelPath(relPath: string): string[] {
  const segs = typeof relPath === 'string' ? relPath.split('/') : [];
  const bad =
    segs.length === 0 || relPath.includes('\0') || relPath.includes('\\') || relPath.startsWith('/') || segs.some((s) => s === '' || s === '.' || s === '..');
  if (bad) throw new AppError('validation', `${JSON.stringify(relPath)} is not a relative path inside the skill.`, { details: { path: relPath } });
  return segs;
}

async function existingVersionDir(store: SkillStore, slug: string, version: string): Promise<string> {
  validateSlug(slug);
  validateVersion(version);
  const dir = versionDir(resolveStore(store).storeDir, slug, version);
  const st = await fsp.lstat(dir).catch(() => null);
  if (!st?.isDirectory()) throw new AppError('not_found', `Version ${version} of ${slug} is not in the store.`, { details: { slug, version } });
  return dir;
}

/** The bytes of one file of a stored version: no `..`, no symlink anywhere on the way, at most 2 MiB. */
export async function readVersionFile(store: SkillStore, slug: string, version: string, relPath: string): Promise<Buffer> {
  const segs = checkRelPath(relPath);
  const dir = await existingVersionDir(store, slug, version);
  let cur = dir;
  for (const [i, seg] of segs.entries()) {
    cur = path.join(cur, seg);
    const st = await fsp.lstat(cur).catch(() => null);
    if (!st) throw new AppError('not_found', `${relPath} does not exist in ${slug} ${version}.`, { details: { path: relPath } });
    if (st.isSymbolicLink())
      throw new AppError('not_allowed', `${relPath} goes through a symbolic link; only regular files can be read.`, { details: { path: relPath } });
    if (i < segs.length - 1 ? !st.isDirectory() : !st.isFile()) {
      throw new AppError('validation', `${relPath} is not a regular file.`, { details: { path: relPath } });
    }
  }
  const fh = await fsp.open(cur, fs.constants.O_RDONLY | O_NOFOLLOW);
  try {
    const { size } = await fh.stat();
    if (size > MAX_READ_BYTES) {
      throw new AppError('validation', `${relPath} is ${size} bytes, over the ${MAX_READ_BYTES} byte read limit.`, {
        details: { path: relPath, size, max: MAX_READ_BYTES },
      });
    }
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

function isText(b: Buffer): boolean {
  if (b.subarray(0, 8192).includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

const lineCount = (s: string) => {
  let n = 1;
  for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n++;
  return n;
};

async function textDiff(dirA: string, dirB: string, d: FileDiff, a: string, b: string): Promise<TextDiff> {
  if ((d.sizeA ?? 0) > MAX_PATCH_BYTES || (d.sizeB ?? 0) > MAX_PATCH_BYTES) return { path: d.path, tooLarge: true };
  const read = (dir: string, present: boolean) => (present ? fsp.readFile(path.join(dir, d.path)) : Promise.resolve(Buffer.alloc(0)));
  const [bufA, bufB] = await Promise.all([read(dirA, d.status !== 'added'), read(dirB, d.status !== 'removed')]);
  if (!isText(bufA) || !isText(bufB)) return { path: d.path, binary: true };
  const nameA = d.status === 'added' ? '/dev/null' : `a/${d.path}`;
  const nameB = d.status === 'removed' ? '/dev/null' : `b/${d.path}`;
  const [textA, textB] = [bufA.toString('utf8'), bufB.toString('utf8')];
  if (lineCount(textA) > MAX_DIFF_LINES || lineCount(textB) > MAX_DIFF_LINES) return { path: d.path, tooLarge: true };
  // Past the edit limit or the time bound the library gives up and returns undefined.
  const patch = createTwoFilesPatch(nameA, nameB, textA, textB, a, b, { maxEditLength: MAX_EDIT_LENGTH, timeout: DIFF_TIMEOUT_MS });
  return patch === undefined ? { path: d.path, tooLarge: true } : { path: d.path, patch };
}

export function compareFileSets(before: Pick<SkillFile, 'path' | 'sha256' | 'size'>[], after: Pick<SkillFile, 'path' | 'sha256' | 'size'>[]): FileDiff[] {
  const mapA = new Map(before.map((f) => [f.path, f]));
  const mapB = new Map(after.map((f) => [f.path, f]));
  const paths = [...new Set([...mapA.keys(), ...mapB.keys()])].sort();
  return paths.map((p) => {
    const fa = mapA.get(p);
    const fb = mapB.get(p);
    const status: FileStatus = !fa ? 'added' : !fb ? 'removed' : fa.sha256 === fb.sha256 ? 'unchanged' : 'modified';
    return { path: p, status, ...(fa ? { sizeA: fa.size } : {}), ...(fb ? { sizeB: fb.size } : {}) };
  });
}

/** What changed from version `a` to version `b`, with unified patches of the changed text files. */
export async function diffVersions(store: SkillStore, slug: string, a: string, b: string): Promise<VersionDiff> {
  const [dirA, dirB] = await Promise.all([existingVersionDir(store, slug, a), existingVersionDir(store, slug, b)]);
  return diffDirs(dirA, dirB, a, b);
}

/** The same comparison for any two skill folders (e.g. an installed version and a staged candidate). */
export async function diffDirs(dirA: string, dirB: string, a: string, b: string): Promise<VersionDiff> {
  const [filesA, filesB] = await Promise.all([listSkillFiles(dirA), listSkillFiles(dirB)]).catch((e: unknown) => {
    throw e instanceof SkillFilesError ? new AppError('conflict', `A stored version is damaged: ${e.message}`, { cause: e }) : e;
  });
  const files = compareFileSets(filesA, filesB);
  const textDiffs: TextDiff[] = [];
  let input = 0;
  for (const d of files) {
    if (d.status === 'unchanged') continue;
    input += (d.sizeA ?? 0) + (d.sizeB ?? 0);
    textDiffs.push(input > MAX_DIFF_INPUT_BYTES ? { path: d.path, tooLarge: true } : await textDiff(dirA, dirB, d, a, b));
  }
  return { a, b, files, textDiffs };
}

/** Compare the active version on disk with what was recorded when it was installed. */
export async function detectDrift(store: SkillStore, slug: string): Promise<DriftReport> {
  const s = resolveStore(store);
  const version = await activeVersion(s, slug);
  const record = version ? findVersion(await readManifest(s.storeDir, slug), version) : undefined;
  if (!version || !record) throw new AppError('not_found', `Skill ${slug} has no active version in the store.`, { details: { slug } });
  const dir = versionDir(s.storeDir, slug, version);
  let disk: SkillFile[];
  try {
    disk = await listSkillFiles(dir, { maxFiles: 50_000, maxFileBytes: 256 * 1024 * 1024 });
  } catch (e) {
    if (!(e instanceof SkillFilesError)) throw e;
    return { version, recordedHash: record.contentHash, diskHash: null, drifted: true, changed: e.file ? [e.file] : [] };
  }
  const diskHash = contentHash(disk);
  const changed = compareFileSets(record.files as RecordedFile[], disk)
    .filter((d) => d.status !== 'unchanged')
    .map((d) => d.path);
  return { version, recordedHash: record.contentHash, diskHash, drifted: diskHash !== record.contentHash, changed };
}
