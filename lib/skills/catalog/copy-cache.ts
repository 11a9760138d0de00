/**
 * What one discovery keeps of each skill folder for the next: the copy, each file's stat identity
 * (device, inode, size, mtime and ctime in nanoseconds) with its sha256, and each folder's identity
 * (a folder's times move when an entry is added, removed or renamed in it). A skill whose folders
 * and files all kept their identity is not listed, read, hashed or parsed again; in one where some
 * changed, only the changed files are read.
 *
 * Same-tick writes: a file rewritten with the same size within the timestamp granularity of its
 * filesystem, right after it was hashed, keeps mtime and ctime. Such an entry is "racy" (its times
 * are less than RACY_MS before its listing began, or after) and is never trusted: it is hashed again on the
 * next build, by which time its times are old enough to be trusted. What remains: filesystems whose
 * ctime does not move on write (some FUSE and network mounts) and writes through a shared mmap
 * (times updated late); an explicit refresh on such a mount still sees them once their times move.
 */
import type { BigIntStats } from 'node:fs';
import fs from 'node:fs';
import path from 'node:path';
import { fileIdentity } from '../files';
import type { SkillCopy, SkillRoot } from '../types';

const RACY_MS = 3000;
/** The stat walk of an unchanged folder is synchronous (a few syscalls); the event loop gets a turn between this many folders. */
const YIELD_EVERY = 32;
const STAT = { bigint: true, throwIfNoEntry: false } as const;

interface FileEntry {
  identity: string;
  sha256: string;
  racy: boolean;
}

interface Entry {
  copy: SkillCopy;
  skillMdBytes: number;
  maxSkillFileBytes: number;
  /** Folders by path relative to the skill ("" the skill folder), with their identity. */
  dirs: Map<string, string>;
  files: Map<string, FileEntry>;
  racy: boolean;
}

interface Seen {
  identity: string;
  racy: boolean;
}

export interface LoadedCopy {
  copy: SkillCopy;
  skillMdBytes: number;
}

/** Records the identities seen while a folder is listed, for CopyCache.remember. */
class IdentityLog {
  readonly files = new Map<string, Seen>();
  readonly dirs = new Map<string, Seen>();
  /** File times are wall-clock times: compare them with the wall clock when the listing began. */
  private readonly startNs = BigInt(Date.now()) * 1_000_000n;

  constructor(private readonly racyNs: bigint) {}

  record(relPath: string, identity: string, st: BigIntStats): void {
    this.files.set(relPath, this.seen(identity, st));
  }

  recordDir(relPath: string, identity: string, st: BigIntStats): void {
    this.dirs.set(relPath, this.seen(identity, st));
  }

  private seen(identity: string, st: BigIntStats): Seen {
    // Either time within the window makes the entry racy.
    const racy = this.startNs - st.mtimeNs < this.racyNs || this.startNs - st.ctimeNs < this.racyNs;
    return { identity, racy: this.racyNs > 0n && racy };
  }
}

export class CopyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly racyNs: bigint;
  private seen = new Set<string>();
  private walks = 0;

  /** `racyMs`: how recent a file's times may be for its identity not to be trusted (default 3 s; 0 trusts every identity). */
  constructor(opts: { racyMs?: number } = {}) {
    this.racyNs = BigInt(Math.round((opts.racyMs ?? RACY_MS) * 1e6));
  }

  /** Records what a listing of one folder sees, for `remember`. */
  log(): IdentityLog {
    return new IdentityLog(this.racyNs);
  }

  keyOf(root: SkillRoot, relDir: string): string {
    return `${root.kind}\0${root.path}\0${relDir}`;
  }

  /** A full discovery begins: entries it does not visit are dropped at `endRound`. */
  startRound(): void {
    this.seen = new Set();
  }

  endRound(): void {
    for (const key of this.entries.keys()) if (!this.seen.has(key)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The previous copy when no folder or file of `dir` changed identity, else null. */
  async unchanged(key: string, dir: string, maxSkillFileBytes: number): Promise<LoadedCopy | null> {
    this.seen.add(key);
    const entry = this.entries.get(key);
    if (!entry || entry.racy || entry.maxSkillFileBytes !== maxSkillFileBytes) return null;
    if (++this.walks % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      for (const [rel, identity] of entry.dirs) {
        const st = rel ? fs.lstatSync(path.join(dir, rel), STAT) : fs.statSync(dir, STAT);
        if (!st?.isDirectory() || fileIdentity(st) !== identity) return null;
      }
      for (const [rel, f] of entry.files) {
        const st = fs.lstatSync(path.join(dir, rel), STAT);
        if (!st?.isFile() || fileIdentity(st) !== f.identity) return null;
      }
    } catch {
      return null; // the usual listing reports what is wrong with the folder
    }
    return { copy: entry.copy, skillMdBytes: entry.skillMdBytes };
  }

  /** The sha256 of a file whose identity is the one recorded (and trusted), for ListFilesOptions.known. */
  known(key: string): (relPath: string, identity: string) => string | undefined {
    const files = this.entries.get(key)?.files;
    return (relPath, identity) => {
      const f = files?.get(relPath);
      return f && !f.racy && f.identity === identity ? f.sha256 : undefined;
    };
  }

  remember(key: string, loaded: LoadedCopy, maxSkillFileBytes: number, log: IdentityLog): void {
    this.seen.add(key);
    const files = new Map<string, FileEntry>();
    const dirs = new Map<string, string>();
    let racy = !log.dirs.has('');
    for (const [rel, d] of log.dirs) {
      dirs.set(rel, d.identity);
      racy ||= d.racy;
    }
    for (const f of loaded.copy.files) {
      const seen = log.files.get(f.path);
      if (!seen) return void this.entries.delete(key);
      files.set(f.path, { identity: seen.identity, sha256: f.sha256, racy: seen.racy });
      racy ||= seen.racy;
    }
    this.entries.set(key, { copy: loaded.copy, skillMdBytes: loaded.skillMdBytes, maxSkillFileBytes, dirs, files, racy });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
