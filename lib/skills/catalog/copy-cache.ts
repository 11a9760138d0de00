/**
 * What one discovery keeps of each skill folder for the next: the copy, each file's stat identity
 * (device, inode, size, mtime and ctime in nanoseconds) with its sha256, and each folder's identity
 * (a folder's times move when an entry is added, removed or renamed in it). A skill whose folders
 * and files all kept their identity is not listed, read, hashed or parsed again; in one where some
 * changed, only the changed files are read. Which folders are skills is kept per root as well
 * (CandidateCache): a root whose folders kept their identity is not walked again.
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
import { fileIdentity, type StatIdent } from '../files';
import type { SkillCopy, SkillRoot } from '../types';
import { CandidateCache } from './candidate-cache';
import { WATCH_DEPTH } from './watch';

const RACY_MS = 3000;
/** The stat walk of an unchanged folder is synchronous (a few syscalls); the event loop gets a turn between this many folders. */
const YIELD_EVERY = 32;
const STAT = { bigint: true, throwIfNoEntry: false } as const;

interface FileEntry {
  identity: string;
  sha256: string;
  racy: boolean;
}

/** A stat identity as its numbers: compared field by field, without formatting a string per stat. */
interface Ident {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** One path to stat when checking a folder, absolute, with what it must still be. */
interface Check {
  abs: string;
  dir: boolean;
  id: Ident;
  /** Within the watcher's reach (WATCH_DEPTH below the root): a quiet watcher vouches for it. */
  watched: boolean;
}

interface Entry {
  copy: SkillCopy;
  skillMdBytes: number;
  maxSkillFileBytes: number;
  /** The skill folder's own identity. */
  self: string;
  /** Its sub-folders and files. */
  checks: Check[];
  files: Map<string, FileEntry>;
  racy: boolean;
  /** The folder and every check within the watcher's reach. */
  allWatched: boolean;
}

interface Seen {
  identity: string;
  id: Ident;
  racy: boolean;
}

const identOf = (st: StatIdent): Ident => ({ dev: st.dev, ino: st.ino, size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs });
const sameIdent = (st: BigIntStats, id: Ident) =>
  st.ino === id.ino && st.mtimeNs === id.mtimeNs && st.ctimeNs === id.ctimeNs && st.size === id.size && st.dev === id.dev;

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

  record(relPath: string, identity: string, st: StatIdent): void {
    this.files.set(relPath, this.seen(identity, st));
  }

  recordDir(relPath: string, identity: string, st: StatIdent): void {
    this.dirs.set(relPath, this.seen(identity, st));
  }

  private seen(identity: string, st: StatIdent): Seen {
    // Either time within the window makes the entry racy.
    const racy = this.startNs - st.mtimeNs < this.racyNs || this.startNs - st.ctimeNs < this.racyNs;
    return { identity, id: identOf(st), racy: this.racyNs > 0n && racy };
  }
}

export class CopyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly racyNs: bigint;
  private seen = new Set<string>();
  private walks = 0;
  /** Copies looked up with a quiet watcher's word (their files not stat-ed), for tests and diagnostics. */
  quietReuses = 0;
  /** The candidates of each root's last walk, under the same racy rule. */
  readonly roots: CandidateCache;

  /** `racyMs`: how recent a file's times may be for its identity not to be trusted (default 3 s; 0 trusts every identity). */
  constructor(opts: { racyMs?: number } = {}) {
    this.racyNs = BigInt(Math.round((opts.racyMs ?? RACY_MS) * 1e6));
    this.roots = new CandidateCache(this.racyNs);
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

  /**
   * The previous copy when no folder or file of `dir` changed identity, else null. `dirIdentity`:
   * the folder's identity taken earlier in this discovery (its stat is then not taken again).
   * `quiet`: a watcher saw nothing under the root since the discovery that recorded the entry, so
   * only the paths beyond its reach are stat-ed.
   */
  async unchanged(key: string, dir: string, maxSkillFileBytes: number, dirIdentity?: string, quiet = false): Promise<LoadedCopy | null> {
    this.seen.add(key);
    const entry = this.entries.get(key);
    if (!entry || entry.racy || entry.maxSkillFileBytes !== maxSkillFileBytes) return null;
    if (quiet) {
      this.quietReuses++;
      if (entry.allWatched) return { copy: entry.copy, skillMdBytes: entry.skillMdBytes };
    }
    if (++this.walks % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      if (dirIdentity === undefined) {
        const st = fs.statSync(dir, STAT);
        if (!st?.isDirectory()) return null;
        dirIdentity = fileIdentity(st);
      }
      if (dirIdentity !== entry.self) return null;
      for (const c of entry.checks) {
        if (quiet && c.watched) continue;
        const st = fs.lstatSync(c.abs, STAT);
        if (!st || (c.dir ? !st.isDirectory() : !st.isFile()) || !sameIdent(st, c.id)) return null;
      }
    } catch {
      return null; // the usual listing reports what is wrong with the folder
    }
    return { copy: entry.copy, skillMdBytes: entry.skillMdBytes };
  }

  /** The recorded (and trusted) identity and sha256 of each file, for ListFilesOptions.known. */
  known(key: string): Map<string, { identity: string; sha256: string }> {
    const known = new Map<string, { identity: string; sha256: string }>();
    for (const [p, f] of this.entries.get(key)?.files ?? []) if (!f.racy) known.set(p, { identity: f.identity, sha256: f.sha256 });
    return known;
  }

  remember(key: string, loaded: LoadedCopy, maxSkillFileBytes: number, log: IdentityLog): void {
    this.seen.add(key);
    const files = new Map<string, FileEntry>();
    const checks: Check[] = [];
    const self = log.dirs.get('');
    if (!self) return void this.entries.delete(key);
    let racy = false;
    const dir = loaded.copy.dir;
    const depth = loaded.copy.relDir.split('/').length;
    // One level short of the watcher's depth, whichever way it counts levels.
    const watched = (rel: string) => depth + rel.split('/').length < WATCH_DEPTH;
    for (const [rel, d] of log.dirs) {
      if (rel) checks.push({ abs: path.join(dir, rel), dir: true, id: d.id, watched: watched(rel) });
      racy ||= d.racy;
    }
    for (const f of loaded.copy.files) {
      const seen = log.files.get(f.path);
      if (!seen) return void this.entries.delete(key);
      files.set(f.path, { identity: seen.identity, sha256: f.sha256, racy: seen.racy });
      checks.push({ abs: path.join(dir, f.path), dir: false, id: seen.id, watched: watched(f.path) });
      racy ||= seen.racy;
    }
    const allWatched = depth < WATCH_DEPTH && checks.every((c) => c.watched);
    this.entries.set(key, { copy: loaded.copy, skillMdBytes: loaded.skillMdBytes, maxSkillFileBytes, self: self.identity, checks, files, racy, allWatched });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }
}
