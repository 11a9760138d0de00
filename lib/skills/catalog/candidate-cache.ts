/**
 * What the last walk of each root found, kept for the next discovery: the candidates, and the
 * identity of every folder the walk listed or probed (the root, its groups, folders without SKILL.md).
 * A folder's times move when an entry is added, removed or renamed in it, so while those identities
 * hold, the walk would find the same folders: it is skipped. A candidate folder whose own identity
 * moved (a file added inside the skill) is probed again for SKILL.md alone; only a candidate that
 * lost SKILL.md, or any other folder that changed, sends the root back to a full walk.
 *
 * A walk that met a symbolic link to something other than a folder (a dangling link may come to
 * life without any folder it saw changing) or a folder it could not read is not kept. Identities
 * whose times are within the racy window of the walk are not trusted, as in CopyCache.
 */
import type { BigIntStats } from 'node:fs';
import fs from 'node:fs';
import path from 'node:path';
import { fileIdentity } from '../files';
import { type Candidate, SKILL_FILE, type WalkTrace as Trace } from './candidates';
import { WATCH_DEPTH } from './watch';

const STAT = { bigint: true, throwIfNoEntry: false } as const;
/** Synchronous stats between two turns of the event loop while a kept walk is checked. */
const YIELD_EVERY = 256;

interface Kept {
  candidates: Candidate[];
  /** The candidates' folder identities, by index. */
  candidateIds: string[];
  /** Every other folder the walk looked into (absolute path) with its identity. */
  folders: Map<string, string>;
}

/** Collects what one walk of a root sees; handed to findCandidates. */
export class WalkTrace implements Trace {
  readonly folders = new Map<string, string>();
  racy = false;
  keepable = true;
  private readonly startNs = BigInt(Date.now()) * 1_000_000n;

  constructor(private readonly racyNs: bigint) {}

  folder(dir: string, st: BigIntStats): string {
    const id = fileIdentity(st);
    this.folders.set(dir, id);
    if (this.racyNs > 0n && (this.startNs - st.mtimeNs < this.racyNs || this.startNs - st.ctimeNs < this.racyNs)) this.racy = true;
    return id;
  }

  /** Something the identities of folders cannot vouch for (a non-folder link, an unreadable folder). */
  unkeepable(): void {
    this.keepable = false;
  }
}

export class CandidateCache {
  private readonly kept = new Map<string, Kept>();
  /** Walks done (roots whose kept candidates could not be reused), for tests and diagnostics. */
  walks = 0;
  /** Kept walks reused on a quiet watcher's word, without a stat. */
  quietReuses = 0;

  constructor(private readonly racyNs: bigint) {}

  trace(): WalkTrace {
    this.walks++;
    return new WalkTrace(this.racyNs);
  }

  private key(rootPath: string, groupDepth: number): string {
    return `${groupDepth}\0${rootPath}`;
  }

  record(rootPath: string, groupDepth: number, candidates: Candidate[], trace: WalkTrace): void {
    const key = this.key(rootPath, groupDepth);
    if (!trace.keepable || trace.racy) return void this.kept.delete(key);
    const folders = new Map(trace.folders);
    const candidateIds: string[] = [];
    for (const c of candidates) {
      const id = folders.get(c.dir);
      if (id === undefined) return void this.kept.delete(key);
      candidateIds.push(id);
      folders.delete(c.dir);
    }
    this.kept.set(key, { candidates, candidateIds, folders });
  }

  forget(rootPath: string, groupDepth: number): void {
    this.kept.delete(this.key(rootPath, groupDepth));
  }

  /**
   * The candidates of the last walk when it would find the same folders now, each with its folder
   * identity as of this call; null when the root must be walked again. `quiet`: a watcher saw
   * nothing under the root since that walk, so folders within its reach are not stat-ed (their
   * kept identities stand).
   */
  async reuse(rootPath: string, groupDepth: number, quiet = false): Promise<Candidate[] | null> {
    const key = this.key(rootPath, groupDepth);
    const kept = this.kept.get(key);
    if (!kept) return null;
    // One level short of the watcher's depth, as in CopyCache.
    const watched = (dir: string) => quiet && path.relative(rootPath, dir).split(path.sep).length < WATCH_DEPTH;
    if (quiet && [...kept.folders.keys()].every(watched) && kept.candidates.every((c) => !c.viaSymlink && watched(c.dir))) {
      this.quietReuses++;
      return kept.candidates.map((c, i) => ({ ...c, dirIdentity: kept.candidateIds[i] }));
    }
    const startNs = BigInt(Date.now()) * 1_000_000n;
    const racy = (st: BigIntStats) => this.racyNs > 0n && (startNs - st.mtimeNs < this.racyNs || startNs - st.ctimeNs < this.racyNs);
    let n = 0;
    const tick = async () => {
      if (++n % YIELD_EVERY === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    };
    try {
      for (const [dir, id] of kept.folders) {
        await tick();
        const st = fs.statSync(dir, STAT);
        if (!st?.isDirectory() || fileIdentity(st) !== id) return this.drop(key);
      }
      const out: Candidate[] = new Array(kept.candidates.length);
      for (let i = 0; i < kept.candidates.length; i++) {
        await tick();
        const c = kept.candidates[i];
        const st = fs.statSync(c.dir, STAT);
        if (!st?.isDirectory()) return this.drop(key);
        const id = fileIdentity(st);
        if (id === kept.candidateIds[i]) {
          out[i] = { ...c, dirIdentity: id };
          continue;
        }
        // Entries inside the skill changed: it stays a candidate while it holds SKILL.md.
        const skillMd = fs.lstatSync(path.join(c.dir, SKILL_FILE), { throwIfNoEntry: false });
        if (!skillMd || racy(st)) return this.drop(key);
        kept.candidates[i] = { ...c, skillMd };
        kept.candidateIds[i] = id;
        out[i] = { ...kept.candidates[i], dirIdentity: id };
      }
      return out;
    } catch {
      return this.drop(key); // the walk reports what is wrong
    }
  }

  private drop(key: string): null {
    this.kept.delete(key);
    return null;
  }
}
