/**
 * A stored version folder as one byte stream and back: a tar of its folders and regular files in
 * path order with fixed times and no owners, so the same folder always packs to the same bytes
 * (and so to the same content-addressed blob). Unpacking admits folders and regular files only.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import * as tar from 'tar';
import { AppError } from '@/lib/core/errors';

/** The folders and regular files below `dir`, relative, sorted; anything else makes the version unpackable. */
async function entriesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(rel: string): Promise<void> {
    const names = (await fsp.readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of names) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        out.push(r);
        await walk(r);
      } else if (e.isFile()) out.push(r);
      else throw new AppError('conflict', `${path.join(dir, r)} is not a regular file or folder; a stored version holds only those.`, { details: { path: r } });
    }
  }
  await walk('');
  return out;
}

/** The tar bytes of a version folder, streamed. */
export async function packVersion(dir: string): Promise<AsyncIterable<Uint8Array>> {
  const list = await entriesOf(dir);
  return tar.create({ cwd: dir, portable: true, mtime: new Date(0), noDirRecurse: true }, list) as unknown as AsyncIterable<Uint8Array>;
}

/** Writes the tar read from `source` into `dest` (an empty folder); fails on anything but folders and regular files. */
export async function unpackVersion(source: Readable, dest: string): Promise<void> {
  let refused: string | null = null;
  const unpack = tar.x({
    cwd: dest,
    strict: true,
    preserveOwner: false,
    filter: (p, entry) => {
      const type = 'type' in entry ? String(entry.type) : '';
      if (type === 'File' || type === 'Directory') return true;
      refused ??= `${p} (${type || 'unknown type'})`;
      return false;
    },
  });
  await new Promise<void>((resolve, reject) => {
    const fail = (e: unknown) => {
      source.unpipe(unpack);
      reject(e);
    };
    unpack.on('close', () => resolve());
    unpack.on('error', fail);
    source.on('error', fail);
    source.pipe(unpack as unknown as NodeJS.WritableStream);
  });
  if (refused) throw new AppError('conflict', `A stored version's archive holds an entry that is not a file or folder: ${refused}.`);
}
