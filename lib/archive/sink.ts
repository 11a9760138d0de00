/**
 * The entry policy shared by every archive reader:
 * name checks, collision detection, running size/count caps, O_EXCL|O_NOFOLLOW writes,
 * clamped modes, and removal of everything written when the extraction fails.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';

export type EntryType = 'file' | 'symlink' | 'dir' | 'other';

export interface ExtractedEntry {
  /** Relative to destDir, forward slashes, no `.`/`..` segments. */
  path: string;
  type: EntryType;
  /** Clamped mode: 0o644 / 0o755 for files, 0o755 for dirs, the archive's permission bits (& 0o777) otherwise. */
  mode: number;
  size: number;
  /** Links only (never created on disk). For hardlinks it is rewritten relative to the link's directory, like a symlink. */
  linkTarget?: string;
  /** True for a hardlink entry (recorded as type 'symlink'). */
  hardlink?: boolean;
  /** First bytes of a file (up to 256). Empty for everything else. */
  head: Buffer;
  /** False when the file was read (counted, head kept) but not written, as it can never be a binary. */
  written?: boolean;
}

export interface SkippedEntry {
  path: string;
  reason: string;
}

export interface Limits {
  maxEntries: number;
  maxTotalBytes: number;
  maxEntryBytes: number;
}

export const HEAD_BYTES = 256;

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const WRITE_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW;

export const unsafe = (message: string, name: string) => new AppError('unsafe_archive', message, { details: { entry: name } });
export const tooLarge = (message: string, details: Record<string, unknown> = {}) => new AppError('archive_too_large', message, { details });

/**
 * Validate a raw entry name and return its normalised relative path ('' for the archive root).
 * Rejects NUL, backslashes, absolute paths, Windows drives and `..` segments.
 */
export function normalizeEntryName(raw: string): string {
  const shown = JSON.stringify(raw);
  if (raw.includes('\0')) throw unsafe(`Archive entry ${shown} contains a NUL byte.`, raw);
  if (raw.includes('\\')) throw unsafe(`Archive entry ${shown} uses a backslash as a path separator.`, raw);
  if (raw.startsWith('/')) throw unsafe(`Archive entry ${shown} is an absolute path.`, raw);
  if (/^[A-Za-z]:/.test(raw)) throw unsafe(`Archive entry ${shown} starts with a Windows drive letter.`, raw);
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw unsafe(`Archive entry ${shown} contains a '..' segment.`, raw);
  if (segments.some((s) => Buffer.byteLength(s) > 255)) throw unsafe(`Archive entry ${shown} has a name segment longer than 255 bytes.`, raw);
  return segments.join('/');
}

/** Key under which two names collide on a case-insensitive or normalising filesystem. */
const foldKey = (p: string) => p.normalize('NFC').toLowerCase().normalize('NFC');

export const clampFileMode = (mode: number): number => (mode & 0o111 ? 0o755 : 0o644);

/** Relative path from the directory of `linkPath` to the archive path `target`. */
function relativeFrom(linkPath: string, target: string): string {
  return path.posix.relative(path.posix.dirname(linkPath), target) || '.';
}

export class ExtractSink {
  readonly entries: ExtractedEntry[] = [];
  readonly skipped: SkippedEntry[] = [];
  private count = 0;
  private total = 0;
  private readonly files = new Map<string, string>(); // fold key -> path
  private readonly dirs = new Map<string, string>();
  private createdDest = false;

  constructor(
    readonly destDir: string,
    readonly limits: Limits,
    private readonly signal?: AbortSignal,
    /** Which regular files to write; the others are still read through (caps, head) but never touch the disk. */
    private readonly keepFile: (path: string, mode: number) => boolean = () => true,
  ) {}

  /** Create destDir (or accept an existing empty one). */
  async open(): Promise<void> {
    let existing: string[] | null = null;
    try {
      existing = await fsp.readdir(this.destDir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (existing && existing.length > 0) {
      throw new AppError('conflict', `Extraction directory ${this.destDir} is not empty.`, { details: { destDir: this.destDir } });
    }
    if (!existing) {
      await fsp.mkdir(this.destDir, { recursive: true, mode: 0o755 });
      this.createdDest = true;
    }
  }

  /** Remove everything this extraction wrote (destDir itself too when it created it). */
  async cleanup(): Promise<void> {
    if (this.createdDest) {
      await fsp.rm(this.destDir, { recursive: true, force: true });
      return;
    }
    const names = await fsp.readdir(this.destDir).catch(() => [] as string[]);
    await Promise.all(names.map((n) => fsp.rm(path.join(this.destDir, n), { recursive: true, force: true })));
  }

  checkAborted = (): void => this.signal?.throwIfAborted();

  /** Count one entry and validate its name. Returns the normalised path ('' = archive root). */
  admit(rawName: string): string {
    this.checkAborted();
    this.count += 1;
    if (this.count > this.limits.maxEntries) {
      throw tooLarge(`Archive has more than ${this.limits.maxEntries} entries.`, { maxEntries: this.limits.maxEntries });
    }
    return normalizeEntryName(rawName);
  }

  /** Check a size the archive declares before any byte is written. */
  checkDeclared(name: string, size: number, totalSoFar = this.total): void {
    if (size > this.limits.maxEntryBytes) {
      throw tooLarge(`Archive entry ${JSON.stringify(name)} declares ${size} bytes, over the ${this.limits.maxEntryBytes} byte limit.`, { entry: name, size });
    }
    if (totalSoFar + size > this.limits.maxTotalBytes) {
      throw tooLarge(`Archive contents exceed the ${this.limits.maxTotalBytes} byte limit.`, { maxTotalBytes: this.limits.maxTotalBytes });
    }
  }

  /** Register a name; two entries that fold to the same key (case, NFC/NFD) fail the extraction. */
  private claim(p: string, isDir: boolean): void {
    const segs = p.split('/');
    for (let i = 1; i < segs.length; i++) {
      const parent = segs.slice(0, i).join('/');
      const key = foldKey(parent);
      if (this.files.has(key)) throw unsafe(`Archive entry ${JSON.stringify(p)} needs ${JSON.stringify(parent)} as a directory, but it is a file.`, p);
      const prev = this.dirs.get(key);
      if (prev !== undefined && prev !== parent)
        throw unsafe(`Archive entries ${JSON.stringify(prev)} and ${JSON.stringify(parent)} collide after case/Unicode normalisation.`, p);
      this.dirs.set(key, parent);
    }
    const key = foldKey(p);
    const prevFile = this.files.get(key);
    const prevDir = this.dirs.get(key);
    if (isDir) {
      if (prevFile !== undefined) throw unsafe(`Archive entries ${JSON.stringify(prevFile)} and ${JSON.stringify(p)} collide.`, p);
      if (prevDir !== undefined && prevDir !== p)
        throw unsafe(`Archive entries ${JSON.stringify(prevDir)} and ${JSON.stringify(p)} collide after case/Unicode normalisation.`, p);
      this.dirs.set(key, p);
    } else {
      const prev = prevFile ?? prevDir;
      if (prev !== undefined) {
        throw unsafe(
          prev === p
            ? `Archive entry ${JSON.stringify(p)} appears twice.`
            : `Archive entries ${JSON.stringify(prev)} and ${JSON.stringify(p)} collide after case/Unicode normalisation.`,
          p,
        );
      }
      this.files.set(key, p);
    }
  }

  private async ensureParent(p: string): Promise<void> {
    const dir = path.posix.dirname(p);
    if (dir !== '.') await fsp.mkdir(path.join(this.destDir, dir), { recursive: true, mode: 0o755 });
  }

  async addDir(p: string): Promise<void> {
    if (p === '') return; // "./" root entry
    this.claim(p, true);
    await fsp.mkdir(path.join(this.destDir, p), { recursive: true, mode: 0o755 });
    await fsp.chmod(path.join(this.destDir, p), 0o755);
    this.entries.push({ path: p, type: 'dir', mode: 0o755, size: 0, head: Buffer.alloc(0) });
  }

  /** Record a link without creating it. `hardTarget` is the archive path a hardlink points to. */
  addLink(p: string, target: string, hard: boolean, mode: number): void {
    if (p === '') throw unsafe('A link entry names the archive root.', p);
    this.claim(p, false);
    let linkTarget = target;
    if (hard) {
      try {
        const norm = normalizeEntryName(target);
        if (norm !== '') linkTarget = relativeFrom(p, norm);
      } catch {
        // an unsafe hardlink target is only recorded; nothing is created from it
      }
    }
    this.entries.push({ path: p, type: 'symlink', mode: mode & 0o777, size: 0, linkTarget, ...(hard ? { hardlink: true } : {}), head: Buffer.alloc(0) });
  }

  /** Record an entry that is not written (device, FIFO, socket, unknown type). */
  addSkipped(p: string, reason: string, mode: number): void {
    if (p === '') return;
    this.claim(p, false);
    this.entries.push({ path: p, type: 'other', mode: mode & 0o777, size: 0, head: Buffer.alloc(0) });
    this.skipped.push({ path: p, reason });
  }

  /**
   * Write a regular file from a stream of chunks, counting real bytes against the caps.
   * `declared` (when known) is an upper bound: a stream that yields more is stopped.
   */
  async addFile(p: string, rawMode: number, declared: number | undefined, data: AsyncIterable<Buffer | Uint8Array>): Promise<ExtractedEntry> {
    if (p === '') throw unsafe('A file entry names the archive root.', p);
    if (declared !== undefined) this.checkDeclared(p, declared);
    this.claim(p, false);
    const mode = clampFileMode(rawMode);
    const keep = this.keepFile(p, mode);
    let fh: fsp.FileHandle | null = null;
    if (keep) {
      await this.ensureParent(p);
      fh = await fsp.open(path.join(this.destDir, p), WRITE_FLAGS, mode);
    }
    let size = 0;
    const heads: Buffer[] = [];
    let headLen = 0;
    try {
      await fh?.chmod(mode);
      for await (const raw of data) {
        this.checkAborted();
        const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.length);
        if (chunk.length === 0) continue;
        size += chunk.length;
        this.total += chunk.length;
        if (declared !== undefined && size > declared) {
          throw tooLarge(`Archive entry ${JSON.stringify(p)} inflates beyond its declared size of ${declared} bytes.`, { entry: p, declared });
        }
        if (size > this.limits.maxEntryBytes) {
          throw tooLarge(`Archive entry ${JSON.stringify(p)} is larger than ${this.limits.maxEntryBytes} bytes.`, {
            entry: p,
            maxEntryBytes: this.limits.maxEntryBytes,
          });
        }
        if (this.total > this.limits.maxTotalBytes) {
          throw tooLarge(`Archive contents exceed the ${this.limits.maxTotalBytes} byte limit.`, { maxTotalBytes: this.limits.maxTotalBytes });
        }
        if (headLen < HEAD_BYTES) {
          const take = chunk.subarray(0, HEAD_BYTES - headLen);
          heads.push(Buffer.from(take));
          headLen += take.length;
        }
        let off = 0;
        while (fh && off < chunk.length) {
          const { bytesWritten } = await fh.write(chunk, off, chunk.length - off);
          off += bytesWritten;
        }
      }
    } finally {
      await fh?.close();
    }
    const entry: ExtractedEntry = { path: p, type: 'file', mode, size, head: Buffer.concat(heads), ...(keep ? {} : { written: false }) };
    this.entries.push(entry);
    return entry;
  }
}
