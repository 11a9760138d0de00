// A minimal ustar writer for Docker's archive API: the engine takes a tar for putArchive and image
// imports, and the entries we send are few and known, so a hand-built header is all it takes.
// Names longer than ustar's 100 (+155 prefix) bytes are refused instead of using pax headers.
import path from 'node:path/posix';
import { AppError } from '@/lib/core/errors';

export type TarEntry =
  /** `uid`/`gid`: the owner the engine gives the file when it unpacks without copyUIDGID (root when absent). */
  | { type: 'file'; name: string; data: Buffer; mode?: number; mtime?: Date; uid?: number; gid?: number }
  | { type: 'dir'; name: string; mode?: number; mtime?: Date }
  | { type: 'symlink'; name: string; target: string; mtime?: Date };

const BLOCK = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function splitName(name: string): { name: string; prefix: string } {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' };
  // ustar: the name may be split at a '/' into a prefix (≤155 bytes) and a name (≤100 bytes).
  for (let i = name.indexOf('/'); i > 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100) return { name: rest, prefix };
  }
  throw new AppError('validation', `path too long for the archive: ${name.slice(0, 80)}…`);
}

function header(entry: TarEntry, size: number): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  const cleaned = path.normalize(entry.name).replace(/^\/+/, '');
  const { name, prefix } = splitName(entry.type === 'dir' && !cleaned.endsWith('/') ? `${cleaned}/` : cleaned);
  const mode = entry.type === 'symlink' ? 0o777 : (entry.mode ?? (entry.type === 'dir' ? 0o755 : 0o644));
  const mtime = Math.floor((entry.mtime ?? new Date(0)).getTime() / 1000);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(mode & 0o7777, 8), 100, 8, 'ascii');
  const uid = entry.type === 'file' ? (entry.uid ?? 0) : 0;
  const gid = entry.type === 'file' ? (entry.gid ?? 0) : 0;
  h.write(octal(uid, 8), 108, 8, 'ascii');
  h.write(octal(gid, 8), 116, 8, 'ascii');
  h.write(octal(size, 12), 124, 12, 'ascii');
  h.write(octal(Math.max(0, mtime), 12), 136, 12, 'ascii');
  h.fill(' ', 148, 156); // checksum placeholder: spaces while summing
  h.write(entry.type === 'file' ? '0' : entry.type === 'dir' ? '5' : '2', 156, 1, 'ascii');
  if (entry.type === 'symlink') {
    if (Buffer.byteLength(entry.target) > 100) throw new AppError('validation', 'symlink target too long for the archive');
    h.write(entry.target, 157, 100, 'utf8');
  }
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  // Names only for root: the engine goes by the numbers, and another uid has no name here.
  if (uid === 0) h.write('root', 265, 32, 'ascii');
  if (gid === 0) h.write('root', 297, 32, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

/** The entries as one uncompressed tar, end-of-archive blocks included. */
export function buildTar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const data = e.type === 'file' ? e.data : Buffer.alloc(0);
    parts.push(header(e, data.length), data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(BLOCK * 2, 0));
  return Buffer.concat(parts);
}
