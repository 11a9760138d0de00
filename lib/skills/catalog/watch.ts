/**
 * Watching the skill roots: add, change, unlink, addDir and unlinkDir under any
 * root are debounced into one onChange call with the changed paths; the caller re-runs discovery
 * and bumps the inventory version.
 *
 * Missing roots: a root that does not exist (yet) is watched through its nearest existing ancestor
 * (one level deep, only the entries on the way to the root); when the root appears it is watched
 * like the others and reported as changed. A root that is deleted goes back to that state. Either
 * way discovery re-reads every root on each refresh, so an explicit refresh always sees them.
 */

import fs from 'node:fs';
import path from 'node:path';
import { type FSWatcher, watch } from 'chokidar';

// process-wide: a constant table, never written
export const WATCH_IGNORED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules', 'dist', '.venv', 'venv', '__pycache__', '.pytest_cache', '.cache']);
/** root/group/skill/... — deep enough for grouped skills with nested scripts and references. */
export const WATCH_DEPTH = 6;
/** After a folder appears under a root, how long before the watcher vouches for it (quietSince). */
const ADDED_DIR_SETTLE_MS = 1000;

export interface WatchOptions {
  /** Default 250 ms; also the write-stability threshold. */
  debounceMs: number;
  onChange: (changed: string[]) => void;
  /** Watcher errors (permissions, too many watches); they never stop the watcher. */
  onError?: (error: unknown) => void;
}

/** A point in a watcher's history, for quietSince. */
export interface WatchMark {
  readonly epoch: number;
  readonly watcher: SkillRootsWatcher;
}

export interface SkillRootsWatcher {
  /** Resolves once the initial scan of every existing root is done (events before that may be missed). */
  ready: Promise<void>;
  close(): Promise<void>;
  /**
   * Now, or null while the watcher can vouch for nothing (initial scan not done, an error seen,
   * closed). Take it after settle().
   */
  mark(): WatchMark | null;
  /**
   * True when this watcher saw nothing at all under its roots since `mark` (no event of any kind,
   * raw ones included, before debouncing or write-finish checks), met no error and is still open:
   * files at most WATCH_DEPTH levels below a root (outside WATCH_IGNORED_DIRS) are as they were.
   */
  quietSince(mark: WatchMark | null): boolean;
  /** Resolves once the events the kernel queued before the call have reached the watcher. */
  settle(): Promise<void>;
}

function exists(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** `p` is `parent` or below it (path strings, already absolute). */
function isSameOrInside(parent: string, p: string): boolean {
  if (p === parent) return true;
  return p.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

function nearestExistingAncestor(p: string): string {
  let dir = path.dirname(p);
  while (!exists(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export function watchSkillRoots(roots: string[], opts: WatchOptions): SkillRootsWatcher {
  const debounceMs = opts.debounceMs ?? 250;
  const rootSet = new Set(roots.map((r) => path.resolve(r)));
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let firstPendingAt = 0;
  let closed = false;

  const flush = () => {
    timer = null;
    if (closed || changed.size === 0) return;
    const paths = [...changed].sort();
    changed.clear();
    opts.onChange(paths);
  };
  const record = (p: string) => {
    if (closed) return;
    if (changed.size === 0) firstPendingAt = Date.now();
    changed.add(p);
    if (timer) clearTimeout(timer);
    // Trailing debounce, but never postponed past 10 intervals under a steady stream of writes.
    const wait = Math.max(0, Math.min(debounceMs, firstPendingAt + debounceMs * 10 - Date.now()));
    timer = setTimeout(flush, wait);
  };
  // Every event of either watcher, raw ones included, moves the epoch; an error ends trust for good.
  let epoch = 0;
  let trusted = false;
  let errored = false;
  const onError = (e: unknown) => {
    errored = true;
    trusted = false;
    epoch++;
    opts.onError?.(e);
  };
  const bump = () => void epoch++;
  // A folder that appears is watched a moment later (chokidar lists it, then watches it): a write
  // in between has no event, so a mark taken around then must not outlive that moment.
  const bumpLater = () => setTimeout(bump, ADDED_DIR_SETTLE_MS).unref();

  const existing = [...rootSet].filter(exists);
  const main: FSWatcher = watch(existing, {
    ignoreInitial: true,
    followSymlinks: true,
    depth: WATCH_DEPTH,
    awaitWriteFinish: { stabilityThreshold: debounceMs, pollInterval: 100 },
    ignored: (p: string) => !rootSet.has(p) && WATCH_IGNORED_DIRS.has(path.basename(p)),
  });

  // Missing roots, each with the ancestor currently watched for it.
  const pending = new Map<string, string>();
  for (const root of rootSet) if (!existing.includes(root)) pending.set(root, nearestExistingAncestor(root));
  const onWayToPending = (p: string) => [...pending.keys()].some((r) => isSameOrInside(p, r));
  const ancestors: FSWatcher = watch([...new Set(pending.values())], {
    ignoreInitial: false,
    followSymlinks: true,
    depth: 0,
    ignored: (p: string) => !onWayToPending(p),
  });
  const releaseAncestor = (ancestor: string) => {
    if (![...pending.values()].includes(ancestor)) ancestors.unwatch(ancestor);
  };

  const recheck = () => {
    if (closed) return;
    for (const [root, ancestor] of [...pending]) {
      if (exists(root)) {
        pending.delete(root);
        releaseAncestor(ancestor);
        main.add(root);
        record(root);
        bumpLater();
        continue;
      }
      const next = nearestExistingAncestor(root);
      if (next !== ancestor) {
        pending.set(root, next);
        releaseAncestor(ancestor);
        ancestors.add(next);
      }
    }
  };

  for (const event of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
    main.on(event, (p: string) => {
      record(p);
      if (event === 'unlinkDir' && rootSet.has(p)) {
        main.unwatch(p);
        const ancestor = nearestExistingAncestor(p);
        pending.set(p, ancestor);
        ancestors.add(ancestor);
      }
    });
  }
  for (const w of [main, ancestors]) {
    w.on('raw', bump);
    w.on('all', bump);
  }
  main.on('addDir', bumpLater);
  ancestors.on('addDir', recheck);
  ancestors.on('unlinkDir', recheck);
  main.on('error', onError);
  ancestors.on('error', onError);

  const readyOf = (w: FSWatcher, count: number) => (count === 0 ? Promise.resolve() : new Promise<void>((resolve) => w.once('ready', () => resolve())));
  // A root created between the existence check and the watch is caught by this first recheck.
  let onClosed!: () => void;
  const closedSignal = new Promise<void>((resolve) => (onClosed = resolve));
  const ready = Promise.race([
    Promise.all([readyOf(main, existing.length), readyOf(ancestors, pending.size)]).then(() => {
      recheck();
      trusted = !closed && !errored;
      epoch++;
    }),
    closedSignal,
  ]);

  const self: SkillRootsWatcher = {
    ready,
    async close() {
      closed = true;
      trusted = false;
      onClosed();
      if (timer) clearTimeout(timer);
      await Promise.all([main.close(), ancestors.close()]);
    },
    mark: () => (trusted && !closed ? { epoch, watcher: self } : null),
    quietSince: (m) => !!m && m.watcher === self && trusted && !closed && m.epoch === epoch,
    // Two turns: the second comes after a poll phase that began after the call, which delivers inotify events.
    settle: async () => {
      for (let i = 0; i < 2; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
  return self;
}
