/**
 * Atomic disk writes: a temp file in the same folder, fsync, rename, then an fsync of the folder so
 * the rename itself survives a crash; symlinks are swapped by renaming a new link over the old one
 * (`ln -sf` unlinks first, which leaves a moment with no link). Temp names start with TMP_PREFIX, so
 * the boot-time recovery of every store can recognise and remove what a crash left behind.
 *
 * The failure rule, the same for every caller: an error that means "this filesystem cannot fsync a
 * directory" (EINVAL, ENOTSUP/EOPNOTSUPP, EISDIR) is ignored; any other error (EIO, ENOSPC, EACCES…)
 * is thrown, because the write is then not known to be durable.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from './errors';

export const TMP_PREFIX = '.tmp-';

// process-wide: a constant table, never written
const NO_DIR_FSYNC = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EISDIR']);
const WRITE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

export function isTempName(name: string): boolean {
  return name.startsWith(TMP_PREFIX);
}

/** A fresh temp path beside `dir`'s entries: `.tmp-<label>-<random>`. */
export function tmpPath(dir: string, label: string): string {
  return path.join(dir, `${TMP_PREFIX}${label}-${randomBytes(6).toString('hex')}`);
}

function ignorable(e: unknown): boolean {
  return NO_DIR_FSYNC.has((e as NodeJS.ErrnoException)?.code ?? '');
}

/** fsync a directory so a rename or create inside it survives a crash. */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(dir, fs.constants.O_RDONLY);
    await fh.sync();
  } catch (e) {
    if (!ignorable(e)) throw e;
  } finally {
    await fh?.close();
  }
}

export function fsyncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, fs.constants.O_RDONLY);
    fs.fsyncSync(fd);
  } catch (e) {
    if (!ignorable(e)) throw e;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export async function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o644): Promise<void> {
  const dir = path.dirname(file);
  const tmp = tmpPath(dir, path.basename(file));
  try {
    const fh = await fsp.open(tmp, WRITE_FLAGS, mode);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  await fsyncDir(dir);
}

export function writeFileAtomicSync(file: string, data: string | Uint8Array, mode = 0o644): void {
  const dir = path.dirname(file);
  const tmp = tmpPath(dir, path.basename(file));
  try {
    const fd = fs.openSync(tmp, WRITE_FLAGS, mode);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDirSync(dir);
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n');
}

const swapFailed = (link: string, e: unknown) => new AppError('swap_failed', `Could not switch ${path.basename(link)}: ${(e as Error).message}.`, { cause: e });

/** Points `link` at `target` atomically: a reader sees the old link or the new one, never none. */
export async function swapSymlink(link: string, target: string): Promise<void> {
  const dir = path.dirname(link);
  const tmp = tmpPath(dir, path.basename(link));
  await fsp.symlink(target, tmp);
  try {
    await fsp.rename(tmp, link);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw swapFailed(link, e);
  }
  await fsyncDir(dir);
}

export function swapSymlinkSync(link: string, target: string): void {
  const dir = path.dirname(link);
  const tmp = tmpPath(dir, path.basename(link));
  fs.symlinkSync(target, tmp);
  try {
    fs.renameSync(tmp, link);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw swapFailed(link, e);
  }
  fsyncDirSync(dir);
}

/** Parsed JSON of `file`, or null when it does not exist. Throws on invalid JSON. */
export async function readJsonFile(file: string): Promise<unknown | null> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return JSON.parse(text) as unknown;
}

/** lstat that answers null for a missing path. */
export async function lstatOrNull(p: string): Promise<fs.Stats | null> {
  try {
    return await fsp.lstat(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
