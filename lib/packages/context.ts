import { bumpPackagesGeneration } from '../runtime/generation';
import path from 'node:path';
import type { AppDb } from '@/db/client';
import { AppError } from '../core/errors';
import { getRuntimeSettings, managerSettings, RUNTIME_SETTINGS_DEFAULTS, type RuntimeSettings } from '../settings';
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

/** Detection results live this long unless an install, uninstall or update invalidates them first. */
export const RUNTIME_CACHE_TTL_MS = 10 * 60_000;

interface PackagesState {
  ensured: Set<string>;
  runtimes: RuntimeCache;
  binaries?: string;
}
const KEY = Symbol.for('skilldock.packages');
const g = globalThis as unknown as Record<symbol, PackagesState | undefined>;
/** Shared across bundles: the worker (server.ts) and the route bundles must see one cache, so invalidation reaches both. */
const state: PackagesState = (g[KEY] ??= { ensured: new Set(), runtimes: createRuntimeCache(RUNTIME_CACHE_TTL_MS) });

/** The pip/npm/system managers never run github: specs; those go to the GitHub-release installer's jobs. */
export function assertManagerSpec(spec: PackageSpec): void {
  if (spec.manager === 'github') throw new AppError('validation', 'github: specs are installed by the GitHub-release installer.', { issues: [{ path: 'spec', message: 'a github: spec' }] });
}

export interface PackageContextOptions {
  signal?: AbortSignal;
  log?: LineSink;
  /** Who asked, recorded with system packages. */
  actor?: string;
  /** Runtime settings (index URLs, registry, apt auto-update); defaults when absent. */
  settings?: RuntimeSettings;
}

/** The manager context for a runtime dir; the dir layout is created on first use in this process. */
export function packageContext(runtimeDir: string, opts: PackageContextOptions = {}): ManagerContext {
  const root = path.resolve(runtimeDir);
  if (!state.ensured.has(root)) {
    ensureRuntimeDir(root);
    state.ensured.add(root);
  }
  return { runtimeDir: root, signal: opts.signal, log: opts.log, settings: managerSettings(opts.settings ?? RUNTIME_SETTINGS_DEFAULTS, opts.actor) };
}

/** The manager context with the stored runtime settings applied. */
export async function loadPackageContext(db: AppDb, runtimeDir: string, opts: Omit<PackageContextOptions, 'settings'> = {}): Promise<ManagerContext> {
  return packageContext(runtimeDir, { ...opts, settings: await getRuntimeSettings(db) });
}

/** Drops cached detection results; called after every install, uninstall and update. */
export function invalidateRuntimes(): void {
  state.runtimes.invalidate();
  bumpPackagesGeneration();
}

export type RuntimesResponse = RuntimeReport & { env: RuntimeEnvEntry[] };

/** The runtime report (cached; `refresh` detects again) with the environment skill processes get. */
export async function runtimeReport(runtimeDir: string, opts: { refresh?: boolean; binaries?: string[] } = {}): Promise<RuntimesResponse> {
  const layout = runtimeLayout(packageContext(runtimeDir).runtimeDir);
  const binaries = opts.binaries ?? RUNTIME_SETTINGS_DEFAULTS.binaries;
  // A changed binaries setting is a different question: detect again.
  if (opts.refresh || state.binaries !== binaries.join(' ')) invalidateRuntimes();
  state.binaries = binaries.join(' ');
  const report = await state.runtimes.get(layout, binaries);
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

/** One advisory-lock key per (manager, canonical name), shared by install, uninstall and update. */
export const packageLockKey = (spec: PackageSpec): number => lockHash(`package:${specLockKey(spec)}`);

/** The global lock of a system manager (apt and apk allow one operation at a time per host). */
export const systemManagerLockKey = (manager: SystemManager): number => lockHash(`system-manager:${manager}`);

/** The runtime report with the binaries list from the stored settings. */
export async function loadRuntimeReport(db: AppDb, runtimeDir: string, refresh = false): Promise<RuntimesResponse> {
  return runtimeReport(runtimeDir, { refresh, binaries: (await getRuntimeSettings(db)).binaries });
}
