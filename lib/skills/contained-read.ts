/**
 * Reads one file of a skill folder for the viewer. The file may have changed since discovery (a
 * symlink or a FIFO swapped in), so everything is checked on the opened descriptor: never
 * following a final symlink, never blocking on a FIFO, a regular file by fstat, the same file as
 * the realpath (inside the folder's realpath), and the read capped.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../core/errors';
import { isInside } from './catalog/containment';

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * The real path of the file `fh` has open. On Linux the kernel names it (`/proc/self/fd/N`: one call,
 * and about the very file opened, not a path looked up again); elsewhere the realpath of `abs` when it
 * names the same file (device and inode) as the one opened. Null when neither can be established.
 */
async function openedPath(fh: fsp.FileHandle, abs: string, st: fs.Stats): Promise<string | null> {
  if (process.platform === 'linux') {
    const named = await fsp.readlink(`/proc/self/fd/${fh.fd}`).catch(() => null);
    if (named !== null) return named.startsWith('/') && !named.endsWith(' (deleted)') ? named : null;
  }
  const real = await fsp.realpath(abs).catch(() => null);
  const again = real ? await fsp.stat(real).catch(() => null) : null;
  return again && again.dev === st.dev && again.ino === st.ino ? real : null;
}

/** `realRoot`: the realpath of `root` when the caller already has it (reading many files of one folder). */
export async function readContainedFile(root: string, rel: string, maxBytes: number, realRoot?: string): Promise<Buffer> {
  const segs = rel.split('/');
  if (!rel || rel.includes('\0') || path.isAbsolute(rel) || segs.some((s) => s === '' || s === '.' || s === '..')) {
    throw new AppError('validation', `${rel} is not a relative path inside the skill.`, { details: { path: rel } });
  }
  const abs = path.join(root, ...segs);
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(abs, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new AppError('not_allowed', `${rel} is a symbolic link; only regular files can be read.`, { details: { path: rel } });
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new AppError('not_found', `${rel} does not exist.`, { details: { path: rel } });
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new AppError('validation', `${rel} is not a regular file.`, { details: { path: rel } });
    if (st.size > maxBytes)
      throw new AppError('payload_too_large', `${rel} is ${st.size} bytes; the limit is ${maxBytes}.`, {
        details: { path: rel, size: st.size, max: maxBytes },
      });
    // A parent folder may have been swapped for a link: the opened file must be inside the root's realpath.
    const [realDir, realFile] = await Promise.all([realRoot ?? fsp.realpath(root), openedPath(fh, abs, st)]);
    if (!realFile || !isInside(realDir, realFile)) {
      throw new AppError('not_allowed', `${rel} resolves outside the skill folder.`, { details: { path: rel } });
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // Sized from fstat, so a file that does not grow is read in one call: a short read is its end.
      const want = Math.min(total <= st.size ? st.size + 1 - total : 64 * 1024, maxBytes + 1 - total);
      const chunk = Buffer.allocUnsafe(want);
      const { bytesRead } = await fh.read(chunk, 0, want, total);
      if (bytesRead > 0) chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      if (total > maxBytes)
        throw new AppError('payload_too_large', `${rel} grew past ${maxBytes} bytes while being read.`, { details: { path: rel, max: maxBytes } });
      if (bytesRead < want) break;
    }
    return Buffer.concat(chunks, total);
  } finally {
    await fh.close();
  }
}
