/**
 * listSkillFiles with synchronous calls, for a worker thread (the catalog build lists folders in
 * the scanner's workers: one syscall each instead of a round trip through the thread pool, and the
 * server's own thread stays free). Same rules and errors as the asynchronous listing; what the
 * callbacks of that one receive comes back as data.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type FolderListing, fileIdentity, IGNORED_DIRS, SkillFilesError, statIdent } from './files';

export interface SyncListOptions {
  maxFiles?: number;
  maxFileBytes?: number;
  /** Files whose sha256 a previous listing found, by path: a file whose identity matches is not read. */
  known?: ReadonlyMap<string, { identity: string; sha256: string }>;
}

/** Each file's and folder's identity ("" is the folder itself, followed if it is a link), and the bytes of every file up to 1 MiB that was read. */
export type SyncListing = FolderListing;

const WHOLE_READ_BYTES = 1024 * 1024;
const CHUNK = 256 * 1024;
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

function readAll(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const n = fs.readSync(fd, buf, off, size - off, off);
    if (n === 0) break;
    off += n;
  }
  return off === size ? buf : buf.subarray(0, off);
}

function hashStream(fd: number): string {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(CHUNK);
  for (let pos = 0; ; ) {
    const n = fs.readSync(fd, buf, 0, CHUNK, pos);
    if (n === 0) break;
    hash.update(buf.subarray(0, n));
    pos += n;
  }
  return hash.digest('hex');
}

export function listSkillFilesSync(dir: string, opts: SyncListOptions = {}): SyncListing {
  const maxFiles = opts.maxFiles ?? 5000;
  const maxFileBytes = opts.maxFileBytes ?? 64 * 1024 * 1024;
  const out: SyncListing = { files: [], fileIdentities: [], dirIdentities: [], contents: [] };
  const walk = (rel: string): void => {
    const dst = rel ? fs.lstatSync(path.join(dir, rel), { bigint: true }) : fs.statSync(dir, { bigint: true });
    out.dirIdentities.push([rel, fileIdentity(dst), statIdent(dst)]);
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!IGNORED_DIRS.has(e.name)) walk(relPath);
        continue;
      }
      if (e.isSymbolicLink()) throw new SkillFilesError('symlink', `${relPath} is a symbolic link; skills hold regular files only.`, relPath);
      if (!e.isFile()) throw new SkillFilesError('special-file', `${relPath} is not a regular file.`, relPath);
      if (out.files.length >= maxFiles) throw new SkillFilesError('too-many-files', `The skill has more than ${maxFiles} files.`);
      const fd = fs.openSync(path.join(dir, relPath), OPEN_FLAGS);
      try {
        const st = fs.fstatSync(fd, { bigint: true });
        const size = Number(st.size);
        if (!st.isFile()) throw new SkillFilesError('special-file', `${relPath} is not a regular file.`, relPath);
        if (size > maxFileBytes) throw new SkillFilesError('file-too-large', `${relPath} is ${size} bytes, over the ${maxFileBytes} byte limit.`, relPath);
        const identity = fileIdentity(st);
        out.fileIdentities.push([relPath, identity, statIdent(st)]);
        const known = opts.known?.get(relPath);
        let sha256: string;
        if (known && known.identity === identity) sha256 = known.sha256;
        else if (size <= WHOLE_READ_BYTES) {
          const buf = readAll(fd, size);
          sha256 = createHash('sha256').update(buf).digest('hex');
          out.contents.push([relPath, buf]);
        } else sha256 = hashStream(fd);
        out.files.push({ path: relPath, size, sha256, mode: Number(st.mode & 0o777n) });
      } finally {
        fs.closeSync(fd);
      }
    }
  };
  walk('');
  out.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}
