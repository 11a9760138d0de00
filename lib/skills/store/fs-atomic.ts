/**
 * Atomic disk writes for the version store (DESIGN rule 5): temp file + fsync + rename, and
 * symlink swaps by renaming a temp link over the old one. Temp names start with TMP_PREFIX
 * so a crash leaves nothing that recoverStore cannot recognise.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

export const TMP_PREFIX = '.tmp-';

export function tmpPath(dir: string, label: string): string {
  return path.join(dir, `${TMP_PREFIX}${label}-${randomBytes(6).toString('hex')}`);
}

/** fsync a directory so a rename inside it survives a crash (best effort: not every FS allows it). */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: fsp.FileHandle | null = null;
  try {
    fh = await fsp.open(dir, fs.constants.O_RDONLY);
    await fh.sync();
  } catch {
    // some filesystems refuse fsync on a directory
  } finally {
    await fh?.close().catch(() => {});
  }
}

export async function writeFileAtomic(file: string, data: string | Buffer, mode = 0o644): Promise<void> {
  const dir = path.dirname(file);
  const tmp = tmpPath(dir, path.basename(file));
  try {
    const fh = await fsp.open(tmp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), mode);
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

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n');
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

/** Point `linkPath` at `target` atomically (a reader sees the old or the new link, never none). */
export async function swapSymlink(linkPath: string, target: string): Promise<void> {
  const dir = path.dirname(linkPath);
  const tmp = tmpPath(dir, `link-${path.basename(linkPath)}`);
  await fsp.symlink(target, tmp, 'dir');
  try {
    await fsp.rename(tmp, linkPath);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  await fsyncDir(dir);
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
