/**
 * Discovery over every configured root. Roots are walked in precedence
 * order and copies come back in that order (then by relDir), so buildInventory can break ties
 * between extra dirs by position. A missing root is normal (no copies, no warning); escapes,
 * limits and unreadable folders become RootWarnings and never stop the rest of the walk.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../../core/concurrency';
import type { FolderLoader } from '../folder-load';
import type { RootWarning, SkillCopy, SkillRoot } from '../types';
import { type Candidate, findCandidates, SKILL_FILE } from './candidates';
import { checkContainment, describeEscape, resolveAllowedTargets } from './containment';
import type { CopyCache } from './copy-cache';
import { type InspectCopy, loadCopy } from './load-copy';

export interface DiscoverOptions {
  /** Folders symlinked workspace/project/extra skills may resolve into (spec `skills.load.allowSymlinkTargets`). */
  allowSymlinkTargets: string[];
  /** Default 300. */
  maxCandidatesPerRoot: number;
  /** Default 256,000. */
  maxSkillFileBytes: number;
  /** Grouping levels below a root; default 1 (`root/<group>/<skill>`). */
  groupDepth: number;
  /** Called per copy with the bytes of its files (≤ 1 MiB each) read for hashing, so a scanner need not read them again. */
  inspect?: InspectCopy;
  /** Kept across discoveries: folders whose files kept their stat identity are not read again (no inspect call for them). */
  cache?: CopyCache;
  /**
   * Roots under which a running watcher saw nothing since the discovery that filled `cache`
   * (SkillRootsWatcher.quietSince): what it kept of them is reused without stat-ing what the
   * watcher covers. Anything reached through a symbolic link is stat-ed all the same.
   */
  quietRoots?: ReadonlySet<string>;
  /** Lists, hashes and parses each skill folder; default: in this thread (the live catalog loads in the scanner's workers, which scan too). */
  load?: FolderLoader;
}

export const DEFAULT_DISCOVER_OPTIONS: DiscoverOptions = {
  allowSymlinkTargets: [],
  maxCandidatesPerRoot: 300,
  maxSkillFileBytes: 256_000,
  groupDepth: 1,
};

const LOAD_CONCURRENCY = 16;

export interface DiscoverResult {
  copies: SkillCopy[];
  warnings: RootWarning[];
}

interface Job {
  root: SkillRoot;
  rootReal: string;
  cand: Candidate;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function tooLarge(root: SkillRoot, cand: Candidate, bytes: number, limit: number): RootWarning {
  const message = `${cand.relDir}/SKILL.md is ${bytes} bytes, over the ${limit} byte limit: listed as invalid.`;
  return { root: root.path, path: cand.dir, code: 'file-too-large', message };
}

/** Candidates of one root after the limit; null when the root does not exist. */
async function scanRoot(root: SkillRoot, opts: DiscoverOptions, warnings: RootWarning[]): Promise<Job[] | null> {
  let rootReal: string;
  let cands: Candidate[];
  const kept = opts.cache?.roots;
  try {
    rootReal = await fsp.realpath(root.path);
    const reused = await kept?.reuse(root.path, opts.groupDepth, opts.quietRoots?.has(root.path));
    if (reused) cands = reused;
    else {
      const trace = kept?.trace();
      cands = await findCandidates(
        root.path,
        opts.groupDepth,
        (dir, e) => warnings.push({ root: root.path, path: dir, code: 'unreadable', message: `${dir} cannot be read: ${errorMessage(e)}` }),
        trace,
      );
      if (trace) kept?.record(root.path, opts.groupDepth, cands, trace);
    }
  } catch (e) {
    kept?.forget(root.path, opts.groupDepth);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    warnings.push({ root: root.path, path: root.path, code: 'unreadable', message: `The ${root.kind} root cannot be read: ${errorMessage(e)}` });
    return [];
  }
  if (cands.length > opts.maxCandidatesPerRoot) {
    const first = cands[opts.maxCandidatesPerRoot];
    warnings.push({
      root: root.path,
      path: first.dir,
      code: 'limit-candidates',
      message: `The ${root.kind} root holds ${cands.length} skill folders; only the first ${opts.maxCandidatesPerRoot} (by path) are loaded, from ${first.relDir} on they are ignored.`,
    });
    cands = cands.slice(0, opts.maxCandidatesPerRoot);
  }
  return cands.map((cand) => ({ root, rootReal, cand }));
}

export async function discoverSkills(roots: SkillRoot[], options: Partial<DiscoverOptions> = {}): Promise<DiscoverResult> {
  const opts: DiscoverOptions = { ...DEFAULT_DISCOVER_OPTIONS, ...options };
  const ordered = [...roots].sort((a, b) => a.precedence - b.precedence);
  const allowed = await resolveAllowedTargets(opts.allowSymlinkTargets);
  opts.cache?.startRound();
  const warningsPerRoot: RootWarning[][] = ordered.map(() => []);
  const jobsPerRoot = await Promise.all(ordered.map((root, i) => scanRoot(root, opts, warningsPerRoot[i])));
  const jobs = jobsPerRoot.flatMap((j) => j ?? []);

  // One warnings list per job keeps the output order independent of I/O timing.
  const jobWarnings: (RootWarning | null)[] = jobs.map(() => null);
  const loaded = await mapLimit(jobs, LOAD_CONCURRENCY, async ({ root, rootReal, cand }, i): Promise<SkillCopy | null> => {
    try {
      const contained = await checkContainment(root.kind, rootReal, cand, allowed);
      if (!contained.ok) {
        jobWarnings[i] = { root: root.path, path: contained.path, code: contained.code, message: describeEscape(root.kind, contained, root.path) };
        return null;
      }
      const quiet = !cand.viaSymlink && !!opts.quietRoots?.has(root.path);
      const { copy, skillMdBytes } = await loadCopy(root, cand, opts.maxSkillFileBytes, opts.inspect, opts.cache, quiet, opts.load);
      if (skillMdBytes > opts.maxSkillFileBytes) jobWarnings[i] = tooLarge(root, cand, skillMdBytes, opts.maxSkillFileBytes);
      return copy;
    } catch (e) {
      jobWarnings[i] = { root: root.path, path: cand.dir, code: 'unreadable', message: `${cand.dir} cannot be read: ${errorMessage(e)}` };
      return null;
    }
  });

  opts.cache?.endRound();
  const warnings = warningsPerRoot.flat();
  jobWarnings.forEach((w) => w && warnings.push(w));
  return { copies: loaded.filter((c): c is SkillCopy => c !== null), warnings };
}

/**
 * Loads one known skill folder again (a watcher saw a change inside it), with the same containment
 * rules as discovery. Null when the folder is no longer a skill folder (SKILL.md gone, the folder
 * gone or unreadable): the caller rediscovers the root.
 */
export async function reloadCopy(root: SkillRoot, prev: SkillCopy, options: Partial<DiscoverOptions> = {}): Promise<DiscoverResult | null> {
  const opts: DiscoverOptions = { ...DEFAULT_DISCOVER_OPTIONS, ...options };
  let cand: Candidate;
  let rootReal: string;
  try {
    const [dirStat, skillMd, real] = await Promise.all([fsp.lstat(prev.dir), fsp.lstat(path.join(prev.dir, SKILL_FILE)), fsp.realpath(root.path)]);
    rootReal = real;
    // Not knowing whether a folder above is a link, resolve the real path (one syscall) as discovery does for links.
    cand = { relDir: prev.relDir, dir: prev.dir, group: prev.group, dirIsSymlink: dirStat.isSymbolicLink(), viaSymlink: true, skillMd };
  } catch {
    return null;
  }
  const contained = await checkContainment(root.kind, rootReal, cand, await resolveAllowedTargets(opts.allowSymlinkTargets));
  if (!contained.ok)
    return {
      copies: [],
      warnings: [{ root: root.path, path: contained.path, code: contained.code, message: describeEscape(root.kind, contained, root.path) }],
    };
  try {
    const { copy, skillMdBytes } = await loadCopy(root, cand, opts.maxSkillFileBytes, opts.inspect, opts.cache, false, opts.load);
    return { copies: [copy], warnings: skillMdBytes > opts.maxSkillFileBytes ? [tooLarge(root, cand, skillMdBytes, opts.maxSkillFileBytes)] : [] };
  } catch {
    return null;
  }
}
