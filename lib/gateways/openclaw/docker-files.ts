// Files in an OpenClaw gateway's container through the Engine API's archive routes only: one file's
// bytes out (one entry, size-capped while streaming), a folder's top-level entries and their
// Skilldock markers out (every other entry skipped unread, the whole stream bounded), a tar in.
import type { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { AppError } from '../../core/errors';
import { trimEndChar } from '../../core/text';
import { MARKER_FILE } from '../access';
import { type GatewayDocker, gatewayEngineError } from './docker-exec';

const MAX_MARKER_BYTES = 64 * 1024;
/** A managed skills folder streamed for its listing stops past this many bytes or entries. */
const MAX_LISTING_BYTES = 512 * 1024 * 1024;
const MAX_LISTING_ENTRIES = 200_000;

export type TopEntryType = 'dir' | 'file' | 'symlink' | 'other';

export interface FolderScan {
  /** The type of the path itself (a symlink is not followed). */
  rootType: TopEntryType;
  /** Entries directly in the folder: name → type (symlinks never followed). */
  entries: Map<string, TopEntryType>;
  /** The MARKER_FILE of each top-level folder that has one as a regular file: folder name → bytes ('' for the path's own). */
  markers: Map<string, Buffer>;
}

/** The archive stream of `p`, or null when the path does not exist (the container does). */
async function archiveOf(d: GatewayDocker, container: string, p: string): Promise<Readable | null> {
  try {
    return (await d.stream.getContainer(container).getArchive({ path: p })) as unknown as Readable;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) {
      try {
        await d.api.getContainer(container).inspect();
      } catch (ie) {
        throw gatewayEngineError(ie, d, container, `Reading ${p}`);
      }
      return null;
    }
    throw gatewayEngineError(e, d, container, `Reading ${p}`);
  }
}

function typeOf(entry: ReadEntry): TopEntryType {
  if (entry.type === 'Directory') return 'dir';
  if (entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile') return 'file';
  if (entry.type === 'SymbolicLink') return 'symlink';
  return 'other';
}

/** Feeds the archive through a tar parser; `onEntry` may call `stop(error?)` to end early. */
function parseArchive(archive: Readable, maxBytes: number, what: string, onEntry: (entry: ReadEntry, stop: (e?: Error) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const parser = new Parser();
    let seen = 0;
    let settled = false;
    const stop = (e?: Error) => {
      if (settled) return;
      settled = true;
      archive.destroy();
      if (e) reject(e);
      else resolve();
    };
    archive.on('data', (c: Buffer) => {
      seen += c.length;
      if (seen > maxBytes) stop(new AppError('payload_too_large', `${what} is larger than the ${Math.round(maxBytes / 1024 / 1024)} MiB Skilldock reads.`));
    });
    archive.on('error', (e) => stop(e));
    parser.on('entry', (entry: ReadEntry) => onEntry(entry, stop));
    parser.on('end', () => stop());
    parser.on('error', (e: Error) => stop(e));
    archive.pipe(parser as unknown as NodeJS.WritableStream);
  });
}

/** A path's own tar header as the engine sends it: its type, permission bits and numeric owner. */
export interface EntryStat {
  type: TopEntryType;
  mode: number;
  uid: number;
  gid: number;
}

const statOf = (entry: ReadEntry): EntryStat => ({ type: typeOf(entry), mode: (entry.mode ?? 0) & 0o7777, uid: entry.uid ?? -1, gid: entry.gid ?? -1 });

/** The regular file `p` (not a symlink) with its header, at most `maxBytes`; null when it does not exist. */
export async function readContainerFileEntry(
  d: GatewayDocker,
  container: string,
  p: string,
  maxBytes: number,
): Promise<{ data: Buffer; stat: EntryStat } | null> {
  const archive = await archiveOf(d, container, p);
  if (!archive) return null;
  const chunks: Buffer[] = [];
  let entries = 0;
  let stat = null as EntryStat | null;
  await parseArchive(archive, maxBytes + 64 * 1024, p, (entry, stop) => {
    entries += 1;
    if (entries > 1 || typeOf(entry) !== 'file') {
      entry.resume();
      stop(new AppError('validation', `${p} in the gateway container is not a regular file.`));
      return;
    }
    stat = statOf(entry);
    let size = 0;
    entry.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) stop(new AppError('payload_too_large', `${p} is larger than the ${Math.round(maxBytes / 1024 / 1024)} MiB Skilldock reads.`));
      else chunks.push(c);
    });
  });
  if (!stat) throw new AppError('upstream_error', `The engine sent an empty archive for ${p}.`);
  return { data: Buffer.concat(chunks), stat };
}

/** The bytes of the regular file `p` (not a symlink), at most `maxBytes`; null when it does not exist. */
export async function readContainerFile(d: GatewayDocker, container: string, p: string, maxBytes: number): Promise<Buffer | null> {
  return (await readContainerFileEntry(d, container, p, maxBytes))?.data ?? null;
}

/**
 * The header of `p` itself (a folder's contents are never read: the stream ends after the first
 * entry); null when it does not exist. The engine's stat header has no owner, the tar header does.
 */
export async function statContainerPath(d: GatewayDocker, container: string, p: string): Promise<EntryStat | null> {
  const archive = await archiveOf(d, container, p);
  if (!archive) return null;
  let stat = null as EntryStat | null;
  await parseArchive(archive, 1024 * 1024, p, (entry, stop) => {
    // The parser may still emit entries it had buffered before the stop: only the first is `p`.
    stat ??= statOf(entry);
    entry.resume();
    stop();
  });
  if (!stat) throw new AppError('upstream_error', `The engine sent an empty archive for ${p}.`);
  return stat;
}

/** The top-level entries of `dir` and their markers; null when `dir` does not exist. */
export async function scanFolder(d: GatewayDocker, container: string, dir: string): Promise<FolderScan | null> {
  const archive = await archiveOf(d, container, dir);
  if (!archive) return null;
  const entries = new Map<string, TopEntryType>();
  const markers = new Map<string, Buffer>();
  let count = 0;
  let rootType: TopEntryType = 'other';
  await parseArchive(archive, MAX_LISTING_BYTES, dir, (entry, stop) => {
    count += 1;
    if (count > MAX_LISTING_ENTRIES) {
      entry.resume();
      return stop(new AppError('payload_too_large', `${dir} holds more than ${MAX_LISTING_ENTRIES} entries.`));
    }
    // Entries come as "<basename of dir>/<rest>".
    const parts = trimEndChar(entry.path, '/').split('/').slice(1);
    if (parts.length === 0) rootType = typeOf(entry);
    else if (parts.length <= 2 && parts.at(-1) === MARKER_FILE && typeOf(entry) === 'file' && entry.size <= MAX_MARKER_BYTES) {
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => markers.set(parts.length === 2 ? (parts[0] as string) : '', Buffer.concat(chunks)));
      return;
    }
    if (parts.length === 1) entries.set(parts[0] as string, typeOf(entry));
    entry.resume();
  });
  return { rootType, entries, markers };
}

/**
 * Unpacks `tar` into folder `dir`, owned by the container's configured user (as the gateway runs);
 * with `ownersFromTar`, owned by the uid/gid each tar header names instead.
 */
export async function putContainerTar(d: GatewayDocker, container: string, dir: string, tar: Buffer, opts: { ownersFromTar?: boolean } = {}): Promise<void> {
  try {
    await d.api.getContainer(container).putArchive(tar, { path: dir, copyUIDGID: !opts.ownersFromTar });
  } catch (e) {
    throw gatewayEngineError(e, d, container, `Writing into ${dir}`);
  }
}
