/**
 * Writing a skill folder's staging copy, and making staged copies durable before they are swapped in.
 * Files are written in parallel and not fsynced one by one: a pass stages every folder it changes,
 * then one barrier (syncfs of the filesystem on Linux, else an fsync of every staged file and folder
 * in parallel) makes all their bytes durable before the first rename, so after a power loss each
 * swapped folder still holds whole files. Against a crash of the process alone no flush is needed:
 * nothing is renamed into place before its staging copy is complete.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../../core/concurrency';
import { runProcess } from '../../core/process';
import { MARKER_FILE, type SkillFolder } from '../access';
import { normalMode } from './paths';

const WRITE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0);
// process-wide: a constant table, never written
const NO_DIR_FSYNC = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EISDIR']);
/** Parallel file operations: enough to keep the thread pool busy, few enough to bound open files. */
export const FILE_PARALLEL = 16;
/** Below this many files, fsyncing each costs less than flushing the whole filesystem. */
const SYNCFS_MIN_FILES = 64;
const SYNCFS_LIMIT_MS = 120_000;
/** Files written between two turns of the event loop. */
const FILES_PER_SLICE = 32;

export interface StagedFiles {
  /** Every file and folder written, the staging folder itself included. */
  files: string[];
  dirs: string[];
  /** The stats of every entry under the staging folder as written (relative paths), for the folder's signature. */
  entries: { rel: string; st: fs.Stats }[];
}

// The mode bits the umask strips, read once as the module loads (reading it sets it for a moment);
// a file created with a mode that loses none of its bits needs no chmod.
const UMASK = process.umask();
const needsChmod = (mode: number) => (mode & UMASK) !== 0;

/** Creates `file` (never an existing one, never through a link) holding `data`; the stats as written. */
function writeNewSync(file: string, data: Uint8Array, mode: number): fs.Stats {
  const fd = fs.openSync(file, WRITE_FLAGS, mode);
  try {
    for (let at = 0; at < data.length; ) at += fs.writeSync(fd, data, at, data.length - at);
    if (needsChmod(mode)) fs.fchmodSync(fd, mode);
    return fs.fstatSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Writes the folder's files and marker under `dir` (which must not exist), without fsync. The calls
 * are synchronous (a small file costs a few system calls, and a hop through libuv's thread pool for
 * each cost more than the call itself), in slices of FILES_PER_SLICE files between which the event
 * loop runs.
 */
export async function writeStaging(
  dir: string,
  folder: SkillFolder,
  marker: string,
  afterFile?: (index: number) => Promise<void> | void,
): Promise<StagedFiles> {
  const subdirs = new Set<string>();
  for (const f of folder.files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) subdirs.add(parts.slice(0, i).join('/'));
  }
  // Shallowest first, each made once.
  const made = [...subdirs].sort((a, b) => a.split('/').length - b.split('/').length);
  fs.mkdirSync(dir, { mode: 0o755 });
  for (const d of made) fs.mkdirSync(path.join(dir, d), { mode: 0o755 });
  const entries: StagedFiles['entries'] = new Array(folder.files.length);
  for (let i = 0; i < folder.files.length; i++) {
    const f = folder.files[i] as SkillFolder['files'][number];
    entries[i] = { rel: f.path, st: writeNewSync(path.join(dir, f.path), f.data, normalMode(f.mode)) };
    if (afterFile) await afterFile(i);
    else if ((i + 1) % FILES_PER_SLICE === 0) await yieldToLoop();
  }
  entries.push({ rel: MARKER_FILE, st: writeNewSync(path.join(dir, MARKER_FILE), Buffer.from(marker), 0o644) });
  // A folder's times move while entries are added to it: taken once every file is in.
  for (const d of made) entries.push({ rel: d, st: fs.lstatSync(path.join(dir, d)) });
  return { files: entries.filter((e) => !subdirs.has(e.rel)).map((e) => path.join(dir, e.rel)), dirs: [dir, ...made.map((d) => path.join(dir, d))], entries };
}

async function fsyncPath(p: string, isDir: boolean): Promise<void> {
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(p, isDir ? fs.constants.O_RDONLY : READ_FLAGS);
    await fh.sync();
  } catch (e) {
    if (!(isDir && NO_DIR_FSYNC.has((e as NodeJS.ErrnoException).code ?? ''))) throw e;
  } finally {
    await fh?.close();
  }
}

/** syncfs(2) of the filesystem holding `dir`, through coreutils `sync -f`; false when that is not available. */
function syncfs(dir: string): Promise<boolean> {
  if (process.platform !== 'linux') return Promise.resolve(false);
  // The project's runner: an argument array, the allowlisted environment, the process group stopped on timeout.
  return runProcess('sync', ['-f', dir], { timeoutMs: SYNCFS_LIMIT_MS, maxOutputBytes: 4096 }).then(
    (r) => r.code === 0,
    () => false,
  );
}

/** Makes every staged file and folder durable (one barrier for the whole pass). */
export async function makeDurable(root: string, staged: readonly StagedFiles[]): Promise<void> {
  const files = staged.flatMap((s) => s.files);
  if (!files.length) return;
  if (files.length >= SYNCFS_MIN_FILES && (await syncfs(root))) return;
  const all = [...files.map((p) => ({ p, dir: false })), ...staged.flatMap((s) => s.dirs.map((p) => ({ p, dir: true })))];
  await mapLimit(all, FILE_PARALLEL, ({ p, dir }) => fsyncPath(p, dir));
}
