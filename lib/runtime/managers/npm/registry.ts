import { mapLimit } from '../../../core/concurrency';
import { AppError, isAppError } from '../../../core/errors';
import { runtimeLayout } from '../../dir';
import type { ManagerContext, OutdatedPackage } from '../../types';
import { compareSemver, isSemverPrerelease } from '../../versions';
import { listNodeModules, npmRegistryUrl, validateNpmName } from './metadata';

interface CacheEntry {
  etag: string;
  latest: string;
  checkedAt: number;
}

/** Registry answers kept between checks, so an unchanged packument costs a 304 instead of a download. */
export interface NpmRegistryCache {
  entries: Map<string, CacheEntry>;
  stats: { requests: number; notModified: number; fetched: number; errors: number };
}

export function createNpmRegistryCache(): NpmRegistryCache {
  return { entries: new Map(), stats: { requests: 0, notModified: 0, fetched: 0, errors: 0 } };
}

export interface NpmOutdatedOptions {
  cache?: NpmRegistryCache;
  /** Registry requests in flight at once. */
  concurrency?: number;
  /** Per request. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface NpmOutdatedResult {
  outdated: OutdatedPackage[];
  errors: { name: string; message: string; class?: string }[];
}

/** The registry path of a package: scoped names keep the `@` and encode the slash, as npm does. */
export function packumentUrl(registry: string, name: string): string {
  return registry + validateNpmName(name).replace('/', '%2f');
}

/** `dist-tags.latest` of a package, using the cache's ETag for a conditional request. */
export async function fetchLatestVersion(registry: string, name: string, opts: NpmOutdatedOptions & { signal?: AbortSignal } = {}): Promise<string> {
  const cache = opts.cache ?? createNpmRegistryCache();
  const key = `${registry}\n${name}`;
  const cached = cache.entries.get(key);
  const headers: Record<string, string> = { accept: 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8' };
  if (cached) headers['if-none-match'] = cached.etag;
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? 15_000);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const url = packumentUrl(registry, name);
  cache.stats.requests++;
  let res: Response;
  try {
    res = await (opts.fetch ?? fetch)(url, { headers, signal, redirect: 'follow' });
  } catch (e) {
    const what = timeout.aborted ? 'timed out' : `failed (${(e as Error).message})`;
    throw new AppError('unavailable', `The npm registry request for ${name} ${what}.`, {
      details: { manager: 'npm', class: timeout.aborted ? 'timeout' : 'network' },
    });
  }
  if (res.status === 304 && cached) {
    cache.stats.notModified++;
    cached.checkedAt = Date.now();
    return cached.latest;
  }
  if (res.status === 404)
    throw new AppError('not_found', `${name} is not in the npm registry ${registry}.`, { details: { manager: 'npm', class: 'not_found' } });
  if (!res.ok) {
    throw new AppError('unavailable', `The npm registry answered ${res.status} for ${name}.`, {
      details: { manager: 'npm', class: 'network', status: res.status },
    });
  }
  let body: { 'dist-tags'?: Record<string, unknown> };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new AppError('unavailable', `The npm registry sent an unreadable packument for ${name}.`, { details: { manager: 'npm', class: 'network' } });
  }
  const latest = body?.['dist-tags']?.latest;
  if (typeof latest !== 'string')
    throw new AppError('not_found', `${name} has no "latest" dist-tag in ${registry}.`, { details: { manager: 'npm', class: 'not_found' } });
  cache.stats.fetched++;
  const etag = res.headers.get('etag');
  if (etag) cache.entries.set(key, { etag, latest, checkedAt: Date.now() });
  else cache.entries.delete(key);
  return latest;
}

/** Newer than current, except a jump from a stable release to a pre-release. */
export function npmUpdateFor(name: string, current: string, latest: string): OutdatedPackage | null {
  let newer: boolean;
  try {
    newer = compareSemver(latest, current) > 0;
  } catch {
    return null;
  }
  if (!newer) return null;
  const prerelease = isSemverPrerelease(latest);
  if (prerelease && !isSemverPrerelease(current)) return null;
  return { manager: 'npm', name, current, latest, ...(prerelease ? { prerelease } : {}) };
}

/**
 * Checks managed npm packages (optionally only `names`) against the registry's packuments.
 * One failing package lands in `errors` and never hides the others.
 */
export async function npmOutdated(ctx: ManagerContext, names?: readonly string[], opts: NpmOutdatedOptions = {}): Promise<NpmOutdatedResult> {
  const registry = npmRegistryUrl(ctx);
  const wanted = names ? new Set(names.map(validateNpmName)) : null;
  const installed = (await listNodeModules(runtimeLayout(ctx.runtimeDir).npmModules, true)).filter((p) => !wanted || wanted.has(p.name));
  const cache = opts.cache ?? createNpmRegistryCache();
  const result: NpmOutdatedResult = { outdated: [], errors: [] };
  await mapLimit(installed, opts.concurrency ?? 8, async (pkg) => {
    try {
      const latest = await fetchLatestVersion(registry, pkg.name, { ...opts, cache, signal: ctx.signal });
      const update = npmUpdateFor(pkg.name, pkg.version, latest);
      if (update) result.outdated.push(update);
    } catch (e) {
      cache.stats.errors++;
      const cls = isAppError(e) ? (e.details?.class as string | undefined) : undefined;
      result.errors.push({ name: pkg.name, message: (e as Error).message, ...(cls ? { class: cls } : {}) });
    }
  });
  result.outdated.sort((a, b) => a.name.localeCompare(b.name));
  result.errors.sort((a, b) => a.name.localeCompare(b.name));
  return result;
}
