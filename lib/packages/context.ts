import path from 'node:path';
import { AppError } from '../core/errors';
import {
  createRuntimeCache,
  describeRuntimeEnv,
  ensureRuntimeDir,
  runtimeLayout,
  specLockKey,
  type LineSink,
  type ManagerContext,
  type PackageSpec,
  type RuntimeCache,
  type RuntimeEnvEntry,
  type RuntimeReport,
  type SystemManager,
} from '../runtime';

/** Detection results live this long unless an install, uninstall or update invalidates them first (PKG-R04). */
export const RUNTIME_CACHE_TTL_MS = 10 * 60_000;

interface PackagesState {
  ensured: Set<string>;
  runtimes: RuntimeCache;
}
const KEY = Symbol.for('skilldock.packages');
const g = globalThis as unknown as Record<symbol, PackagesState | undefined>;
/** Shared across bundles: the worker (server.ts) and the route bundles must see one cache, so invalidation reaches both. */
const state: PackagesState = (g[KEY] ??= { ensured: new Set(), runtimes: createRuntimeCache(RUNTIME_CACHE_TTL_MS) });

export const GITHUB_REFUSAL = 'GitHub-release binaries are installed from the GitHub tab (not available yet)';

/** Refuses specs this service does not run; github: belongs to the GitHub-release installer. */
export function assertSupportedSpec(spec: PackageSpec): void {
  if (spec.manager === 'github') throw new AppError('VALIDATION', `${GITHUB_REFUSAL}.`, { issues: [{ path: 'spec', message: `${GITHUB_REFUSAL}.` }] });
}

export interface PackageContextOptions {
  signal?: AbortSignal;
  log?: LineSink;
  /** Who asked, recorded with system packages. */
  actor?: string;
}

/** The manager context for a runtime dir; the dir layout is created on first use in this process. */
export function packageContext(runtimeDir: string, opts: PackageContextOptions = {}): ManagerContext {
  const root = path.resolve(runtimeDir);
  if (!state.ensured.has(root)) {
    ensureRuntimeDir(root);
    state.ensured.add(root);
  }
  return { runtimeDir: root, signal: opts.signal, log: opts.log, settings: opts.actor ? { actor: opts.actor } : {} };
}

/** Drops cached detection results; called after every install, uninstall and update. */
export function invalidateRuntimes(): void {
  state.runtimes.invalidate();
}

export type RuntimesResponse = RuntimeReport & { env: RuntimeEnvEntry[] };

/** The runtime report (cached; `refresh` detects again) with the environment skill processes get. */
export async function runtimeReport(runtimeDir: string, refresh = false): Promise<RuntimesResponse> {
  const layout = runtimeLayout(packageContext(runtimeDir).runtimeDir);
  if (refresh) invalidateRuntimes();
  const report = await state.runtimes.get(layout);
  return { ...report, env: describeRuntimeEnv(layout) };
}

/** FNV-1a, folded into [2^30, 2^31) so it stays clear of the small fixed lock keys (migrations, job claims). */
function lockHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % 0x40000000) + 0x40000000;
}

/** One advisory-lock key per (manager, canonical name), shared by install, uninstall and update (PKG-M04). */
export const packageLockKey = (spec: PackageSpec): number => lockHash(`package:${specLockKey(spec)}`);

/** The global lock of a system manager (apt and apk allow one operation at a time per host). */
export const systemManagerLockKey = (manager: SystemManager): number => lockHash(`system-manager:${manager}`);
