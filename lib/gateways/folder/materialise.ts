/**
 * Skill folders on the local filesystem, each put in place whole: the new folder is written into a
 * hidden staging folder inside `root` (same filesystem), made durable (stage.ts: one barrier for all
 * the folders of a pass), then swapped in with two renames —
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
import { checkFolder, checkFolderName, folderDigest, LEFTOVER_RE, MAX_FILES, OLD_PREFIX, STAGING_PREFIX, TRASH_PREFIX } from './paths';
import { makeDurable, type StagedFiles, writeStaging } from './stage';

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

/** A folder written into its staging copy, not yet swapped in. */
export interface StagedFolder extends StagedFiles {
  name: string;
  staging: string;
  /** `root/<name>` existed (with our marker) when it was staged. */
  replaces: boolean;
}

/**
 * Writes `folder` into a fresh staging copy inside `root` (not yet durable, not yet in place); null
 * when the marker at `root/<name>` already names the same digest (unless `force`); a `conflict` when
 * `root/<name>` exists without a Skilldock marker.
 */
export async function stageSkillFolder(root: string, folder: SkillFolder, opts: PutOptions = {}): Promise<StagedFolder | null> {
  checkFolder(folder);
  // A cheap call made synchronously, like the writes that follow (stage.ts).
  const st = fs.lstatSync(path.join(root, folder.name), { throwIfNoEntry: false });
  if (st) {
    const marker = await readMarker(root, folder.name);
    if (!marker) throw foreignFolder(root, folder.name);
    if (marker.digest === folder.digest && !opts.force) return null;
  }
  const staging = path.join(root, `${STAGING_PREFIX}${folder.name}-${rand()}`);
  const marker: MarkerFile = { name: folder.name, digest: folder.digest, writer: MARKER_WRITER, writtenAt: new Date().toISOString() };
  try {
    const written = await writeStaging(staging, folder, `${JSON.stringify(marker, null, 2)}\n`, opts.hooks?.afterFile);
    return { name: folder.name, staging, replaces: !!st, ...written };
  } catch (e) {
    await fsp.rm(staging, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Swaps a durable staged folder in (two renames when it replaces one). Answers the old folder's
 * temporary path, to delete once the caller has fsynced `root`. The staging copy is gone after.
 */
export async function commitStaged(root: string, s: StagedFolder, hooks?: PutHooks): Promise<string | null> {
  const dest = path.join(root, s.name);
  try {
    if (s.replaces) {
      const old = path.join(root, `${OLD_PREFIX}${s.name}-${rand()}`);
      await fsp.rename(dest, old);
      await hooks?.afterOldMoved?.();
      try {
        await fsp.rename(s.staging, dest);
      } catch (e) {
        await fsp.rename(old, dest).catch(() => undefined);
        throw e;
      }
      return old;
    }
    try {
      await fsp.rename(s.staging, dest);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Someone created a folder there since it was checked.
      if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') throw foreignFolder(root, s.name);
      throw e;
    }
    return null;
  } catch (e) {
    // Swapped in, the staging copy has become the folder; otherwise it is removed here.
    await discardStaged(s);
    throw e;
  }
}

/** Deletes a staged copy that will not be swapped in (nothing when it was). */
export async function discardStaged(s: StagedFolder): Promise<void> {
  await fsp.rm(s.staging, { recursive: true, force: true });
}

/**
 * Puts `folder` at `root/<name>` (old or new, never a mix). 'unchanged' when the marker there already
 * names the same digest (unless `force`); a `conflict` when `root/<name>` exists without a Skilldock marker.
 */
export async function putSkillFolder(root: string, folder: SkillFolder, opts: PutOptions = {}): Promise<'written' | 'unchanged'> {
  const staged = await stageSkillFolder(root, folder, opts);
  if (!staged) return 'unchanged';
  try {
    await opts.hooks?.afterStaged?.();
    await makeDurable(root, [staged]);
    const old = await commitStaged(root, staged, opts.hooks);
    await fsyncDir(root);
    if (old) await fsp.rm(old, { recursive: true, force: true });
  } finally {
    await discardStaged(staged);
  }
  return 'written';
}

/**
 * Renames `root/<name>` away when Skilldock wrote it, answering the trash path to delete once the
 * caller has fsynced `root`; null when it is not there; `conflict` when it is not ours.
 */
export async function trashSkillFolder(root: string, name: string): Promise<string | null> {
  checkFolderName(name);
  const dest = path.join(root, name);
  if (!(await lstatOrNull(dest))) return null;
  if (!(await readMarker(root, name))) throw foreignFolder(root, name);
  // Renamed away first, so the folder disappears whole; recovery deletes a trash leftover, never restores it.
  const trash = path.join(root, `${TRASH_PREFIX}${name}-${rand()}`);
  await fsp.rename(dest, trash);
  return trash;
}

/** Removes `root/<name>` when Skilldock wrote it; 'absent' when it is not there; `conflict` when it is not ours. */
export async function removeSkillFolder(root: string, name: string): Promise<'removed' | 'absent'> {
  const trash = await trashSkillFolder(root, name);
  if (!trash) return 'absent';
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
