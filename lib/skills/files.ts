/**
 * The files of a skill folder and its content hash (ClawHub's resolve algorithm:
 * sha256 over the sorted `path:sha256` lines joined by "\n"). Used by discovery, imports,
 * versions and drift detection alike, so every place hashes the same set of files.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { SkillFile } from './types';

/** Folders never part of a skill's content (tool state, VCS, caches). */
// process-wide: a constant table, never written
export const IGNORED_DIRS = new Set(['.git', '.clawhub', 'node_modules', '__pycache__', '.venv', 'venv', '.pytest_cache', '.cache', 'dist']);

export interface ListFilesOptions {
  /** Stop after this many files (default 5,000). */
  maxFiles?: number;
  /** A larger file fails the listing; default 64 MiB. */
  maxFileBytes?: number;
  /** Receives the bytes of every file up to 1 MiB, read once for hashing (the scanner reuses them). */
  onFile?: (path: string, content: Buffer) => void;
  /** Files whose sha256 a previous listing found, by path: a file whose stat identity is unchanged is not read. */
  known?: ReadonlyMap<string, { identity: string; sha256: string }>;
  /** Receives each file's stat identity (fileIdentity) as found on the descriptor that was read. */
  onIdentity?: (path: string, identity: string, stats: StatIdent) => void;
  /** Receives each folder's identity ("" is `dir` itself, followed if it is a link), taken before it is read. */
  onDir?: (path: string, identity: string, stats: StatIdent) => void;
}

/** The stat fields an identity is made of, as plain data (it crosses to and from worker threads). */
export interface StatIdent {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

export const statIdent = (st: StatIdent): StatIdent => ({ dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs });

/**
 * What says a file is unchanged without reading it: device, inode, size, and the modification and
 * change times in nanoseconds. Any write or chmod moves ctime, which no user-space call can set back.
 */
export function fileIdentity(st: StatIdent): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** Files up to this size are read whole (one read instead of a stream); larger ones are streamed. */
const WHOLE_READ_BYTES = 1024 * 1024;

export class SkillFilesError extends Error {
  constructor(
    readonly code: 'too-many-files' | 'file-too-large' | 'symlink' | 'special-file',
    message: string,
    readonly file?: string,
  ) {
    super(message);
    this.name = 'SkillFilesError';
  }
}

/** The file's bytes, knowing its size from the fstat already done (readFile would fstat again). */
async function readExactly(fh: fsp.FileHandle, size: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(size);
  let off = 0;
  while (off < size) {
    const { bytesRead } = await fh.read(buf, off, size - off, off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
  return off === size ? buf : buf.subarray(0, off);
}

async function sha256Stream(fh: fsp.FileHandle): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fh.createReadStream({ autoClose: false, start: 0 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Regular files of `dir`, recursively, sorted by path, each hashed. Symlinks and special files
 * inside a skill are refused (a skill's content is only regular files), ignored folders skipped.
 */
export async function listSkillFiles(dir: string, opts: ListFilesOptions = {}): Promise<SkillFile[]> {
  const maxFiles = opts.maxFiles ?? 5000;
  const maxFileBytes = opts.maxFileBytes ?? 64 * 1024 * 1024;
  const out: SkillFile[] = [];
  async function walk(rel: string): Promise<void> {
    if (opts.onDir) {
      const st = rel ? await fsp.lstat(path.join(dir, rel), { bigint: true }) : await fsp.stat(dir, { bigint: true });
      opts.onDir(rel, fileIdentity(st), st);
    }
    const entries = await fsp.readdir(path.join(dir, rel), { withFileTypes: true });
    for (const e of entries) {
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      const abs = path.join(dir, relPath);
      if (e.isDirectory()) {
        if (!IGNORED_DIRS.has(e.name)) await walk(relPath);
        continue;
      }
      if (e.isSymbolicLink()) throw new SkillFilesError('symlink', `${relPath} is a symbolic link; skills hold regular files only.`, relPath);
      if (!e.isFile()) throw new SkillFilesError('special-file', `${relPath} is not a regular file.`, relPath);
      if (out.length >= maxFiles) throw new SkillFilesError('too-many-files', `The skill has more than ${maxFiles} files.`);
      // One open (never following a link, never blocking on a FIFO swapped in since readdir), one fstat, one read.
      const fh = await fsp.open(abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
      let st: fs.BigIntStats;
      let sha256: string;
      try {
        st = await fh.stat({ bigint: true });
        const size = Number(st.size);
        if (!st.isFile()) throw new SkillFilesError('special-file', `${relPath} is not a regular file.`, relPath);
        if (size > maxFileBytes) throw new SkillFilesError('file-too-large', `${relPath} is ${size} bytes, over the ${maxFileBytes} byte limit.`, relPath);
        const identity = fileIdentity(st);
        opts.onIdentity?.(relPath, identity, st);
        const known = opts.known?.get(relPath);
        if (known && known.identity === identity) sha256 = known.sha256;
        else if (size <= WHOLE_READ_BYTES) {
          const buf = await readExactly(fh, size);
          sha256 = createHash('sha256').update(buf).digest('hex');
          opts.onFile?.(relPath, buf);
        } else sha256 = await sha256Stream(fh);
      } finally {
        await fh.close();
      }
      out.push({ path: relPath, size: Number(st.size), sha256, mode: Number(st.mode & 0o777n) });
    }
  }
  await walk('');
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

/** What a folder listing found, as data: the files, the identities seen and the bytes read (see files-sync.ts). */
export interface FolderListing {
  files: SkillFile[];
  fileIdentities: [string, string, StatIdent][];
  dirIdentities: [string, string, StatIdent][];
  contents: [string, Buffer][];
}

/** Lists a skill folder (the catalog's discovery takes one that runs in a worker thread). */
export type FolderLister = (dir: string, opts: { known?: ListFilesOptions['known'] }) => Promise<FolderListing>;

/** listSkillFiles in this thread, as a FolderLister. */
export const listFolder: FolderLister = async (dir, { known }) => {
  const out: FolderListing = { files: [], fileIdentities: [], dirIdentities: [], contents: [] };
  out.files = await listSkillFiles(dir, {
    known,
    onFile: (p, b) => out.contents.push([p, b]),
    onIdentity: (p, id, st) => out.fileIdentities.push([p, id, statIdent(st)]),
    onDir: (p, id, st) => out.dirIdentities.push([p, id, statIdent(st)]),
  });
  return out;
};

/** ClawHub's content hash: sha256 of the sorted `path:sha256` lines joined by "\n". */
export function contentHash(files: Pick<SkillFile, 'path' | 'sha256'>[]): string {
  const lines = files.map((f) => `${f.path}:${f.sha256}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}
