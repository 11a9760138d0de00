import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors';
import { MARKER_FILE, type SkillFolder } from '../access';

// Names and paths of a skill folder, checked before anything touches the disk, and the folder's digest.

export const FOLDER_NAME_RE = /^[a-z0-9][a-z0-9._-]{0,127}$/;
export const MAX_FILE_PATH = 1024;
export const MAX_SEGMENT = 255;
export const MAX_DEPTH = 16;
export const MAX_FILES = 10_000;

export const STAGING_PREFIX = '.skilldock-staging-';
export const OLD_PREFIX = '.skilldock-old-';
export const TRASH_PREFIX = '.skilldock-trash-';
/** `<prefix><name>-<12 hex>`: the random tail has a fixed length, so names holding `-` parse back. */
export const LEFTOVER_RE = /^\.skilldock-(staging|old|trash)-(.+)-([0-9a-f]{12})$/;

export function isLeftoverName(entry: string): boolean {
  return LEFTOVER_RE.test(entry);
}

export function checkFolderName(name: unknown): string {
  if (typeof name !== 'string' || !FOLDER_NAME_RE.test(name) || name.includes('..')) {
    throw new AppError('validation', `"${String(name).slice(0, 140)}" is not a valid skill folder name.`, {
      hint: 'Use 1-128 characters: lower-case letters, digits, ".", "_" and "-", starting with a letter or digit, without "..".',
    });
  }
  return name;
}

const invalidPath = (p: string, why: string) =>
  new AppError('validation', `The skill file path "${p.slice(0, 200)}" is not allowed: ${why}.`, {
    hint: 'File paths are relative, use "/" between folders, and name no "." or ".." segment.',
  });

/** A relative path with "/" separators, no empty, "." or ".." segment, no NUL or backslash, bounded. */
export function checkFilePath(p: unknown): string {
  if (typeof p !== 'string' || p.length === 0) throw invalidPath(String(p), 'it is empty');
  if (p.length > MAX_FILE_PATH) throw invalidPath(p, `it is longer than ${MAX_FILE_PATH} characters`);
  if (p.includes('\0')) throw invalidPath(p, 'it holds a NUL character');
  if (p.includes('\\')) throw invalidPath(p, 'it holds a backslash');
  if (p.startsWith('/')) throw invalidPath(p, 'it is absolute');
  const parts = p.split('/');
  if (parts.length > MAX_DEPTH) throw invalidPath(p, `it is nested deeper than ${MAX_DEPTH} levels`);
  for (const s of parts) {
    if (s === '' || s === '.' || s === '..') throw invalidPath(p, 'it has an empty, "." or ".." segment');
    if (Buffer.byteLength(s) > MAX_SEGMENT) throw invalidPath(p, `a segment is longer than ${MAX_SEGMENT} bytes`);
  }
  if (p === MARKER_FILE) throw invalidPath(p, 'it is the Skilldock marker file');
  return p;
}

/** Only the executable bit is kept: 0o755 or 0o644. */
export function normalMode(mode: number): number {
  return (mode & 0o111) !== 0 ? 0o755 : 0o644;
}

/** Checks every path, and that no path is both a file and a folder of another path, nor repeated. */
export function checkFolder(folder: SkillFolder): void {
  checkFolderName(folder.name);
  if (typeof folder.digest !== 'string' || !/^[0-9a-f]{64}$/.test(folder.digest)) {
    throw new AppError('validation', `The digest of skill folder "${folder.name}" is not a sha256 hex string.`);
  }
  if (folder.files.length > MAX_FILES) {
    throw new AppError('validation', `Skill folder "${folder.name}" has more than ${MAX_FILES} files.`);
  }
  const files = new Set<string>();
  const dirs = new Set<string>();
  for (const f of folder.files) {
    const p = checkFilePath(f.path);
    if (files.has(p) || dirs.has(p)) throw invalidPath(p, 'it is listed twice or is also a folder');
    files.add(p);
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  for (const d of dirs) if (files.has(d)) throw invalidPath(d, 'it is both a file and a folder');
}

/** sha256 over the files sorted by path: each file's path, normalised mode and bytes, length-prefixed. */
export function folderDigest(files: readonly { path: string; mode: number; data: Uint8Array }[]): string {
  const h = createHash('sha256');
  const sorted = [...files].sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  for (const f of sorted) {
    const p = Buffer.from(f.path);
    h.update(`${p.length}:`);
    h.update(p);
    h.update(`:${normalMode(f.mode).toString(8)}:${f.data.length}:`);
    h.update(f.data);
  }
  return h.digest('hex');
}
