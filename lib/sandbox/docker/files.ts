// Files in a container through the engine's archive API only: a one-entry tar in, a streamed and
// size-capped tar out, a directory listing from one fixed argv. No shell ever sees a path.
import path from 'node:path/posix';
import { PassThrough, type Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { AppError } from '@/lib/core/errors';
import { trimEndChar } from '@/lib/core/text';
import type { FileEntry } from '../backend';
import { KIT_BIN } from '../kit/build';
import { type DockerConnection, toAppError } from './connection';
import { runExec } from './exec';
import { buildTar, type TarEntry } from './tar';

const REFUSED_ROOTS = ['/proc', '/sys', '/dev'];
const MAX_PATH = 4096;
// Go's os.FileMode bits as the engine reports them in X-Docker-Container-Path-Stat.
const MODE_DIR = 2 ** 31;
const MODE_SYMLINK = 2 ** 27;
const MODE_NOT_REGULAR = MODE_DIR | MODE_SYMLINK | (2 ** 26) | (2 ** 25) | (2 ** 24) | (2 ** 21) | (2 ** 19);

/** An absolute, normalised path outside /proc, /sys and /dev; anything else is a validation error. */
export function sandboxPath(p: string, field = 'path'): string {
  if (typeof p !== 'string' || !p.startsWith('/') || p.includes('\0') || p.length > MAX_PATH) {
    throw new AppError('validation', `${field} must be an absolute path`, { issues: [{ path: field, message: 'absolute path' }] });
  }
  // Keeps the root "/" itself.
  const n = trimEndChar(path.normalize(p), '/') || '/';
  if (REFUSED_ROOTS.some((r) => n === r || n.startsWith(`${r}/`))) {
    throw new AppError('not_allowed', `${n} is under ${REFUSED_ROOTS.join(', ')}, which sandbox file operations refuse`, {
      issues: [{ path: field, message: 'refused path' }],
    });
  }
  return n;
}

export interface PathStat {
  name: string;
  size: number;
  mode: number;
  mtime: string;
  linkTarget: string;
}

/** The engine's stat of one path (HEAD on the archive route), or null when it does not exist. */
export async function statPath(conn: DockerConnection, id: string, p: string): Promise<PathStat | null> {
  try {
    const res = (await conn.api.getContainer(id).infoArchive({ path: p })) as unknown as { headers: Record<string, string>; resume?: () => void };
    res.resume?.();
    const raw = res.headers['x-docker-container-path-stat'];
    return raw ? (JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as PathStat) : null;
  } catch (e) {
    // A HEAD reply has no body: a 404 means a missing path or a missing container; ask which.
    if ((e as { statusCode?: number }).statusCode === 404) {
      const exists = await conn.api
        .getContainer(id)
        .inspect()
        .then(
          () => true,
          () => false,
        );
      if (exists) return null;
      throw new AppError('sandbox_not_found', `sandbox ${id} does not exist`);
    }
    throw toAppError(e, conn.endpoint, `stat ${p}`);
  }
}

/** Writes `data` at `p` in one archive upload; parent folders come from the tar. */
export async function putFile(conn: DockerConnection, id: string, p: string, data: Buffer, mode = 0o644): Promise<void> {
  const target = sandboxPath(p);
  if (target === '/') throw new AppError('validation', 'cannot write to /', { issues: [{ path: 'path', message: 'a file path' }] });
  // Unpacked into the nearest existing folder: on a read-only rootfs only the mounts take writes.
  let base = path.dirname(target);
  while (base !== '/' && !(await statPath(conn, id, base))) base = path.dirname(base);
  const rel = base === '/' ? target.slice(1) : target.slice(base.length + 1);
  const parts = rel.split('/');
  const now = new Date();
  const entries: TarEntry[] = parts.slice(0, -1).map((_, i) => ({ type: 'dir', name: parts.slice(0, i + 1).join('/'), mtime: now }));
  entries.push({ type: 'file', name: rel, data, mode: mode & 0o7777, mtime: now });
  await putTar(conn, id, base, buildTar(entries));
}

export async function putTar(conn: DockerConnection, id: string, dir: string, tar: Buffer): Promise<void> {
  try {
    await conn.api.getContainer(id).putArchive(tar, { path: dir });
  } catch (e) {
    throw toAppError(e, conn.endpoint, `write into ${dir}`);
  }
}

/** The file's bytes, streamed from the archive; more than `maxBytes` is refused before or during. */
export async function getFile(conn: DockerConnection, id: string, p: string, maxBytes: number): Promise<Readable> {
  const target = sandboxPath(p);
  const st = await statPath(conn, id, target);
  if (!st) throw new AppError('not_found', `${target} does not exist in the sandbox`);
  if (st.mode & MODE_NOT_REGULAR) throw new AppError('validation', `${target} is not a regular file`, { issues: [{ path: 'path', message: 'not a file' }] });
  if (st.size > maxBytes)
    throw new AppError('sandbox_file_too_large', `${target} is ${st.size} bytes, more than the ${maxBytes} allowed`, { details: { size: st.size, maxBytes } });
  let archive: NodeJS.ReadableStream;
  try {
    archive = await conn.stream.getContainer(id).getArchive({ path: target });
  } catch (e) {
    throw toAppError(e, conn.endpoint, `read ${target}`);
  }
  const out = new PassThrough();
  const parser = new Parser();
  let seen = 0;
  let files = 0;
  const fail = (e: Error) => {
    out.destroy(e);
    (archive as Readable).destroy?.();
  };
  parser.on('entry', (entry: ReadEntry) => {
    files += 1;
    if (files > 1 || entry.type !== 'File') {
      entry.resume();
      if (files > 1) fail(new AppError('unsafe_archive', `the archive of ${target} holds more than one entry`));
      return;
    }
    entry.on('data', (c: Buffer) => {
      seen += c.length;
      if (seen > maxBytes) return fail(new AppError('sandbox_file_too_large', `${target} grew past the ${maxBytes} bytes allowed`));
      out.write(c);
    });
  });
  parser.on('end', () => {
    if (files === 0) return fail(new AppError('not_found', `${target} is not in the archive`));
    out.end();
  });
  parser.on('error', (e: Error) => fail(e));
  archive.on('error', (e: Error) => fail(toAppError(e, conn.endpoint, `read ${target}`)));
  out.on('close', () => (archive as Readable).destroy?.());
  archive.pipe(parser as unknown as NodeJS.WritableStream);
  return out;
}

/** The folder as the engine archives it (a tar stream, read by the caller with its own entry policy); null when it does not exist. */
export async function getFolderArchive(
  conn: DockerConnection,
  id: string,
  dir: string,
  signal?: AbortSignal,
): Promise<{ stream: Readable; root: string } | null> {
  const target = sandboxPath(dir, 'dir');
  if (target === '/') throw new AppError('validation', 'Name a folder below /.', { issues: [{ path: 'dir', message: 'a folder below /' }] });
  if (!(await statPath(conn, id, target))) return null;
  try {
    const stream = (await conn.stream.getContainer(id).getArchive({ path: target, abortSignal: signal })) as unknown as Readable;
    return { stream, root: path.basename(target) };
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return null;
    throw toAppError(e, conn.endpoint, `read ${target}`);
  }
}

function typeOf(rawModeHex: string): FileEntry['type'] {
  const kind = Number.parseInt(rawModeHex, 16) & 0o170000;
  if (kind === 0o100000) return 'file';
  if (kind === 0o040000) return 'dir';
  if (kind === 0o120000) return 'symlink';
  return 'other';
}

/** Entries directly in `dir`, listed by the control kit (never the sandbox's own `find` or `stat`). */
export async function listDir(conn: DockerConnection, id: string, dir: string, hide: (p: string) => boolean = () => false): Promise<FileEntry[]> {
  const d = sandboxPath(dir, 'dir');
  const r = await runExec(conn, id, {
    argv: [KIT_BIN, 'ls', d],
    timeoutMs: 30_000,
    maxOutputBytes: 8 * 1024 * 1024,
  });
  if (r.exitCode === 4) throw new AppError('not_found', `${d} does not exist in the sandbox`);
  if (r.exitCode !== 0) throw new AppError('sandbox_error', `listing ${d} failed (exit ${r.exitCode}): ${r.stderr.trim().slice(0, 300)}`);
  const entries: FileEntry[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^([0-9a-f]+) (\d+) (\d+) (.+)$/.exec(line);
    if (!m) continue;
    const full = m[4] as string;
    if (!full.startsWith(d === '/' ? '/' : `${d}/`) || hide(full)) continue;
    entries.push({ name: path.basename(full), path: full, type: typeOf(m[1] as string), size: Number(m[2]), modifiedAt: new Date(Number(m[3]) * 1000) });
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}
