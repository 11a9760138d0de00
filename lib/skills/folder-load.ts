/**
 * One skill folder loaded the way the catalog build needs it: listed and hashed, SKILL.md read
 * (bounded) and parsed, and — unless its content was scanned before — scanned. The catalog runs it
 * in the scanner's worker threads (loadSkillFolderSync, synchronous calls), so the server's own
 * thread only assembles and gates; loadSkillFolder is the same in this thread, without blocking it.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { contentHash, type FolderListing, type ListFilesOptions, listFolder, SkillFilesError } from './files';
import { listSkillFilesSync } from './files-sync';
import { parseSkillMd } from './manifest';
import { declaredOf, type ScanInputFile, scanSkill } from './scanner/scan';
import type { MetadataKey, ParsedSkill, ScanResult, SkillFile } from './types';

export const SKILL_MD = 'SKILL.md';
/** Files over 1 MiB are not read whole for the scan: the scanner gets their first bytes (binary detection, a text file's start). */
const HEAD_BYTES = 64 * 1024;
const WHOLE_READ = 1024 * 1024;

export interface FolderLoadOptions {
  known?: ListFilesOptions['known'];
  maxSkillFileBytes: number;
  /** The folder's name (the manifest's fallback name). */
  dirName: string;
  /** The metadata blocks read, in order (the skills setting `metadataKeys`); default: all, in the default order. */
  metadataKeys?: readonly MetadataKey[];
  /** Scan the files unless the content hash is one of these (a loader in this thread leaves the scan to its caller). */
  scan?: boolean;
}

export interface FolderLoad {
  /** Without `contents` when the loader scanned (the bytes stayed where they were read). */
  listing: FolderListing | null;
  /** Why the folder's files could not be listed (the skill is then invalid). */
  filesError: { code?: SkillFilesError['code']; message: string; file?: string } | null;
  skillMdBytes: number;
  parsed: ParsedSkill;
  contentHash: string;
  /** Present when this load scanned the files. */
  scan?: ScanResult;
}

function readSkillMdSync(file: string, maxBytes: number): { text: string; sizeBytes: number } {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(Math.min(size, maxBytes));
    let read = 0;
    while (read < buf.length) {
      const n = fs.readSync(fd, buf, read, buf.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return { text: buf.subarray(0, read).toString('utf8'), sizeBytes: size };
  } finally {
    fs.closeSync(fd);
  }
}

function readHeadSync(file: string): Buffer {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const buf = Buffer.allocUnsafe(HEAD_BYTES);
    return buf.subarray(0, fs.readSync(fd, buf, 0, HEAD_BYTES, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/** The scanner's input: the bytes the listing read (with their sha256), the rest read here. */
export function scanInputSync(dir: string, files: SkillFile[], contents: ReadonlyMap<string, Buffer>): ScanInputFile[] {
  return files.map((f) => {
    const kept = contents.get(f.path);
    if (kept) return { path: f.path, content: kept, sha256: f.sha256 };
    const abs = path.join(dir, f.path);
    return { path: f.path, content: f.size <= WHOLE_READ ? fs.readFileSync(abs) : readHeadSync(abs) };
  });
}

async function readHead(file: string): Promise<Buffer> {
  const fh = await fsp.open(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const buf = Buffer.allocUnsafe(HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** scanInputSync in this thread, without blocking it. */
export function scanInput(dir: string, files: SkillFile[], contents: ReadonlyMap<string, Buffer>): Promise<ScanInputFile[]> {
  return Promise.all(
    files.map(async (f) => {
      const kept = contents.get(f.path);
      if (kept) return { path: f.path, content: kept, sha256: f.sha256 };
      const abs = path.join(dir, f.path);
      return { path: f.path, content: f.size <= WHOLE_READ ? await fsp.readFile(abs) : await readHead(abs) };
    }),
  );
}

const errorOf = (e: unknown): FolderLoad['filesError'] =>
  e instanceof SkillFilesError ? { code: e.code, message: e.message, file: e.file } : { message: e instanceof Error ? e.message : String(e) };

/** SKILL.md as the listing read it, when it did and it fits; else null (it is read on its own, bounded). */
function listedSkillMd(listing: FolderListing | null, maxBytes: number): { text: string; sizeBytes: number } | null {
  const listed = listing?.contents.find(([p]) => p === SKILL_MD)?.[1];
  return listed && listed.length <= maxBytes ? { text: listed.toString('utf8'), sizeBytes: listed.length } : null;
}

function finish(listing: FolderListing | null, filesError: FolderLoad['filesError'], md: { text: string; sizeBytes: number }, opts: FolderLoadOptions) {
  const parsed = parseSkillMd(md.text, { dirName: opts.dirName, file: SKILL_MD, sizeBytes: md.sizeBytes, metadataKeys: opts.metadataKeys });
  return { listing, filesError, skillMdBytes: md.sizeBytes, parsed, contentHash: contentHash(listing?.files ?? []) };
}

/**
 * In a worker thread. `scanned`: content hashes whose scan the caller holds already. Throws only
 * when SKILL.md cannot be read (the caller reports the folder as unreadable).
 */
export function loadSkillFolderSync(dir: string, opts: FolderLoadOptions, scanned: ReadonlySet<string>): FolderLoad {
  let listing: FolderListing | null = null;
  let filesError: FolderLoad['filesError'] = null;
  try {
    listing = listSkillFilesSync(dir, { known: opts.known });
  } catch (e) {
    filesError = errorOf(e);
  }
  const md = listedSkillMd(listing, opts.maxSkillFileBytes) ?? readSkillMdSync(path.join(dir, SKILL_MD), opts.maxSkillFileBytes);
  const load: FolderLoad = finish(listing, filesError, md, opts);
  if (listing && opts.scan && !scanned.has(load.contentHash)) {
    try {
      load.scan = scanSkill(scanInputSync(dir, listing.files, new Map(listing.contents)), declaredOf(load.parsed.manifest));
    } catch (e) {
      load.scan = { verdict: 'error', findings: [], filesScanned: 0, error: `The scan could not read the skill's files: ${(e as Error).message}` };
    }
    listing.contents = [];
  }
  return load;
}

/** The same in this thread, asynchronously; never scans (the caller scans with the bytes in `listing.contents`). */
export async function loadSkillFolder(dir: string, opts: FolderLoadOptions): Promise<FolderLoad> {
  let listing: FolderListing | null = null;
  let filesError: FolderLoad['filesError'] = null;
  try {
    listing = await listFolder(dir, { known: opts.known });
  } catch (e) {
    filesError = errorOf(e);
  }
  const md = listedSkillMd(listing, opts.maxSkillFileBytes) ?? (await readSkillMd(path.join(dir, SKILL_MD), opts.maxSkillFileBytes));
  return finish(listing, filesError, md, opts);
}

/**
 * Reads at most `maxBytes` of SKILL.md and reports its real size. A larger file is not read
 * further: the parser gets the size and marks the skill invalid.
 */
export async function readSkillMd(file: string, maxBytes: number): Promise<{ text: string; sizeBytes: number }> {
  const fh = await fsp.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const want = Math.min(size, maxBytes);
    const buf = Buffer.allocUnsafe(want);
    let read = 0;
    while (read < want) {
      const { bytesRead } = await fh.read(buf, read, want - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { text: buf.subarray(0, read).toString('utf8'), sizeBytes: size };
  } finally {
    await fh.close();
  }
}

/** Loads a folder: in a worker thread when the caller has one (FolderLoader), else here. */
export type FolderLoader = (dir: string, opts: FolderLoadOptions) => Promise<FolderLoad>;
