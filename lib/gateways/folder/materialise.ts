/**
 * Skill folders on the local filesystem, each put in place whole: the new folder is written into a
 * hidden staging folder inside `root` (same filesystem), fsynced, then swapped in with two renames —
 * the old folder to `.skilldock-old-<name>-<rand>`, the staging folder to `<name>` — and the old one
 * removed. Node has no renameat2(RENAME_EXCHANGE), so between the two renames `<name>` is briefly
 * absent; a reader sees the old folder, no folder, or the new folder, never a mix of files.
 * recoverLeftovers() repairs what a crash (even SIGKILL) leaves: it runs at the start of every sync.
 * Every folder written carries MARKER_FILE; a folder without it is never replaced nor removed.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir, lstatOrNull } from '../../core/atomic-fs';
import { AppError } from '../../core/errors';
import { type FolderMarker, MARKER_FILE, type SkillFolder } from '../access';
import { checkFolder, checkFolderName, folderDigest, LEFTOVER_RE, MAX_FILES, normalMode, OLD_PREFIX, STAGING_PREFIX, TRASH_PREFIX } from './paths';

export { checkFilePath, checkFolderName, folderDigest } from './paths';

export const MARKER_WRITER = 'skilldock';

export interface MarkerFile extends FolderMarker {
  writer: typeof MARKER_WRITER;
  writtenAt: string;
}

/** Test seams: called at fixed points of a put, so a test can stop the process there. */
export interface PutHooks {
  afterFile?: (index: number) => Promise<void> | void;
  afterStaged?: () => Promise<void> | void;
  afterOldMoved?: () => Promise<void> | void;
}

export interface PutOptions {
  /** Write even when the marker names the same digest (the files were changed by hand). */
  force?: boolean;
  hooks?: PutHooks;
}

const WRITE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0);
const MAX_MARKER_BYTES = 64 * 1024;

const rand = () => randomBytes(6).toString('hex');

const foreignFolder = (root: string, name: string) =>
  new AppError('conflict', `${path.join(root, name)} exists and was not written by Skilldock, so it is left alone.`, {
    details: { root, name },
    hint: 'Move or rename that folder, or remove the skill from the agent, then sync again.',
  });

/** The marker of `root/<name>` when it is a real folder (not a symlink) holding a Skilldock marker for that name. */
export async function readMarker(root: string, name: string): Promise<MarkerFile | null> {
  const st = await lstatOrNull(path.join(root, name));
  if (!st?.isDirectory()) return null;
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(path.join(root, name, MARKER_FILE), READ_FLAGS);
    const mst = await fh.stat();
    if (!mst.isFile() || mst.size > MAX_MARKER_BYTES) return null;
    const m = JSON.parse(await fh.readFile('utf8')) as Partial<MarkerFile>;
    if (m.writer !== MARKER_WRITER || m.name !== name || typeof m.digest !== 'string') return null;
    return { name, digest: m.digest, writer: MARKER_WRITER, writtenAt: String(m.writtenAt ?? '') };
  } catch {
    return null;
  } finally {
    await fh?.close();
  }
}

async function writeFileDurable(file: string, data: Uint8Array, mode: number): Promise<void> {
  const fh = await fsp.open(file, WRITE_FLAGS, mode);
  try {
    await fh.writeFile(data);
    await fh.chmod(mode);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Writes the folder's files and marker under `dir` (fresh), fsyncing every file and folder. */
async function writeStaging(dir: string, folder: SkillFolder, hooks: PutHooks | undefined): Promise<void> {
  await fsp.mkdir(dir, { mode: 0o755 });
  const dirs = new Set<string>([dir]);
  for (const [i, f] of folder.files.entries()) {
    const file = path.join(dir, f.path);
    const parent = path.dirname(file);
    if (!dirs.has(parent)) {
      await fsp.mkdir(parent, { recursive: true, mode: 0o755 });
      for (let d = parent; d.length > dir.length; d = path.dirname(d)) dirs.add(d);
    }
    await writeFileDurable(file, f.data, normalMode(f.mode));
    await hooks?.afterFile?.(i);
  }
  const marker: MarkerFile = { name: folder.name, digest: folder.digest, writer: MARKER_WRITER, writtenAt: new Date().toISOString() };
  await writeFileDurable(path.join(dir, MARKER_FILE), Buffer.from(`${JSON.stringify(marker, null, 2)}\n`), 0o644);
  // Deepest first, so each folder's entries are durable before its parent's.
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) await fsyncDir(d);
}

/**
 * Puts `folder` at `root/<name>` (old or new, never a mix). 'unchanged' when the marker there already
 * names the same digest (unless `force`); a `conflict` when `root/<name>` exists without a Skilldock marker.
 */
export async function putSkillFolder(root: string, folder: SkillFolder, opts: PutOptions = {}): Promise<'written' | 'unchanged'> {
  checkFolder(folder);
  const { hooks } = opts;
  const dest = path.join(root, folder.name);
  const st = await lstatOrNull(dest);
  if (st) {
    const marker = await readMarker(root, folder.name);
    if (!marker) throw foreignFolder(root, folder.name);
    if (marker.digest === folder.digest && !opts.force) return 'unchanged';
  }
  const staging = path.join(root, `${STAGING_PREFIX}${folder.name}-${rand()}`);
  try {
    await writeStaging(staging, folder, hooks);
    await hooks?.afterStaged?.();
    if (st) {
      const old = path.join(root, `${OLD_PREFIX}${folder.name}-${rand()}`);
      await fsp.rename(dest, old);
      await hooks?.afterOldMoved?.();
      try {
        await fsp.rename(staging, dest);
      } catch (e) {
        await fsp.rename(old, dest).catch(() => undefined);
        throw e;
      }
      await fsyncDir(root);
      await fsp.rm(old, { recursive: true, force: true });
    } else {
      try {
        await fsp.rename(staging, dest);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // Someone created a folder there since it was checked.
        if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') throw foreignFolder(root, folder.name);
        throw e;
      }
      await fsyncDir(root);
    }
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
  return 'written';
}

/** Removes `root/<name>` when Skilldock wrote it; 'absent' when it is not there; `conflict` when it is not ours. */
export async function removeSkillFolder(root: string, name: string): Promise<'removed' | 'absent'> {
  checkFolderName(name);
  const dest = path.join(root, name);
  if (!(await lstatOrNull(dest))) return 'absent';
  if (!(await readMarker(root, name))) throw foreignFolder(root, name);
  // Renamed away first, so the folder disappears whole; recovery deletes a trash leftover, never restores it.
  const trash = path.join(root, `${TRASH_PREFIX}${name}-${rand()}`);
  await fsp.rename(dest, trash);
  await fsyncDir(root);
  await fsp.rm(trash, { recursive: true, force: true });
  return 'removed';
}

/**
 * The folders of `root` with a Skilldock marker (name → marker) and the other folders and symlinks
 * (symlinks are never followed, so always foreign). Skilldock's own leftovers and plain files are skipped.
 */
export async function listManagedFolders(root: string): Promise<{ ours: Map<string, FolderMarker>; foreign: Set<string> }> {
  const ours = new Map<string, FolderMarker>();
  const foreign = new Set<string>();
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(root, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ours, foreign };
    throw e;
  }
  for (const e of entries) {
    if (LEFTOVER_RE.test(e.name)) continue;
    if (e.isSymbolicLink()) {
      foreign.add(e.name);
      continue;
    }
    if (!e.isDirectory()) continue;
    const marker = await readMarker(root, e.name);
    if (marker) ours.set(e.name, { name: marker.name, digest: marker.digest });
    else foreign.add(e.name);
  }
  return { ours, foreign };
}

/**
 * folderDigest of what `root/<name>` holds now (its marker aside), to find files changed by hand;
 * null when it holds a symlink or anything but files and folders, or more than MAX_FILES files.
 */
export async function folderDigestOnDisk(root: string, name: string): Promise<string | null> {
  checkFolderName(name);
  const top = path.join(root, name);
  const files: { path: string; mode: number; data: Buffer }[] = [];
  const walk = async (rel: string): Promise<boolean> => {
    for (const e of await fsp.readdir(path.join(top, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === MARKER_FILE) continue;
      if (e.isDirectory()) {
        if (!(await walk(p))) return false;
      } else if (e.isFile() && files.length < MAX_FILES) {
        const file = path.join(top, p);
        const [st, data] = await Promise.all([fsp.lstat(file), fsp.readFile(file, { flag: READ_FLAGS })]);
        files.push({ path: p, mode: st.mode, data });
      } else return false;
    }
    return true;
  };
  try {
    return (await walk('')) ? folderDigest(files) : null;
  } catch {
    return null;
  }
}

export interface RecoveryReport {
  removed: string[];
  restored: string[];
}

/**
 * Repairs what an interrupted put or remove left in `root`: staging and trash folders are deleted;
 * an old folder is renamed back when `<name>` is missing (the crash fell between the two renames),
 * else deleted. Only one process may sync a root at a time (the caller holds a lock).
 */
export async function recoverLeftovers(root: string): Promise<RecoveryReport> {
  const report: RecoveryReport = { removed: [], restored: [] };
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(root, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return report;
    throw e;
  }
  const olds: { entry: string; name: string }[] = [];
  for (const e of entries) {
    const m = LEFTOVER_RE.exec(e.name);
    if (!m) continue;
    if (m[1] === 'old' && e.isDirectory()) olds.push({ entry: e.name, name: m[2] as string });
    else {
      await fsp.rm(path.join(root, e.name), { recursive: true, force: true });
      report.removed.push(e.name);
    }
  }
  for (const { entry, name } of olds) {
    const dest = path.join(root, name);
    if (!(await lstatOrNull(dest))) {
      await fsp.rename(path.join(root, entry), dest);
      report.restored.push(name);
    } else {
      await fsp.rm(path.join(root, entry), { recursive: true, force: true });
      report.removed.push(entry);
    }
  }
  if (report.removed.length || report.restored.length) await fsyncDir(root);
  return report;
}
