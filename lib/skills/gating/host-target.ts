/**
 * The host as a gating target. Binary lookup reuses lib/runtime's `which`
 * (a regular file with X_OK, symlinks followed — a directory named like the bin is not a binary).
 * It scans the runtime dir's bin folders first (they come first on a skill's PATH), then PATH,
 * then the usual system folders. Results are cached per lookup key (the dirs searched); the
 * caller invalidates on every package install/uninstall, and misses also expire after
 * `missTtlMs` so a binary installed by hand is found without a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanPath } from '../../core/child-env';
import { joinPathList, splitPathList, which } from '../../core/which';
import type { GatingTarget, Os } from '../types';

const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const DARWIN_DIRS = ['/opt/homebrew/bin'];

export interface HostTargetOptions {
  /** Replaces the PATH entries of `env` (default: PATH of `env`). */
  pathDirs?: string[];
  /** Default process.env (read on each lookup, so a PATH change is seen). */
  env?: Record<string, string | undefined>;
  /** Skilldock's bin folders (GitHub bin dir, npm global bin, pip/venv bin), searched first. */
  extraDirs?: string[];
  /** How long a miss is trusted without an invalidate (default 60 s). Hits stay until invalidate. */
  missTtlMs?: number;
  id?: string;
  label?: string;
  /** The home "~/" means in required files (default: HOME of `env`, else the server's). */
  home?: string;
}

/** A required file's absolute path: "~" is `home`; null for anything neither absolute nor under "~/". */
export function resolveRequiredFile(file: string, home: string): string | null {
  if (file === '~') return home;
  if (file.startsWith('~/')) return path.join(home, file.slice(2));
  return path.isAbsolute(file) ? path.normalize(file) : null;
}

export interface HostTarget extends GatingTarget {
  /** Forgets every cached lookup (call on each package install/uninstall and PATH change). */
  invalidate(): void;
  /** The folders searched, in order (shown in explain traces). */
  searchDirs(): string[];
}

export function hostPlatform(platform: NodeJS.Platform = process.platform): Os {
  return platform === 'darwin' ? 'darwin' : platform === 'win32' ? 'win32' : 'linux';
}

export function createHostTarget(opts: HostTargetOptions = {}): HostTarget {
  const env = opts.env ?? process.env;
  const platform = hostPlatform();
  const missTtlMs = opts.missTtlMs ?? 60_000;
  const cache = new Map<string, { path: string | null; at: number }>();
  let cacheKey = '';

  const searchDirs = (): string[] => {
    // The PATH skill processes get: without what `npm start` put in front (Skilldock's own node_modules/.bin).
    const fromPath = opts.pathDirs ?? splitPathList(cleanPath(env.PATH));
    const system = platform === 'darwin' ? [...DARWIN_DIRS, ...SYSTEM_DIRS] : SYSTEM_DIRS;
    return splitPathList(joinPathList([...(opts.extraDirs ?? []), ...fromPath, ...system])).filter((d) => path.isAbsolute(d));
  };

  const lookup = (name: string, pathList: string): string | null => {
    // A bin is a plain command name; anything with a separator would be a path lookup.
    if (!name || name.includes('/') || name.includes('\\') || name === '.' || name === '..') return null;
    return which(name, pathList);
  };

  return {
    id: opts.id ?? 'host',
    label: opts.label ?? 'This host',
    platform,
    env,
    searchDirs,
    invalidate() {
      cache.clear();
    },
    // Not cached: a config file appears when someone writes it, with no install to invalidate on.
    async exists(paths: string[]): Promise<Record<string, boolean>> {
      const home = opts.home ?? env.HOME ?? os.homedir();
      const out: Record<string, boolean> = {};
      for (const p of paths) {
        const abs = resolveRequiredFile(p, home);
        out[p] =
          !!abs &&
          (await fs.promises.access(abs).then(
            () => true,
            () => false,
          ));
      }
      return out;
    },
    async which(names: string[]): Promise<Record<string, string | null>> {
      const pathList = joinPathList(searchDirs());
      if (pathList !== cacheKey) {
        cache.clear();
        cacheKey = pathList;
      }
      const now = Date.now();
      const out: Record<string, string | null> = {};
      for (const name of names) {
        const hit = cache.get(name);
        if (hit && (hit.path !== null || now - hit.at < missTtlMs)) {
          out[name] = hit.path;
          continue;
        }
        const found = lookup(name, pathList);
        cache.set(name, { path: found, at: now });
        out[name] = found;
      }
      return out;
    },
  };
}
