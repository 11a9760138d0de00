import path from 'node:path';
import type { AppDb } from '@/db/client';
import { AppError } from '../core/errors';
import { lockKeyOf } from '../core/lock-key';
import {
  createNpmRegistryCache,
  createRuntimeCache,
  describeRuntimeEnv,
  ensureRuntimeDir,
  type LineSink,
  type ManagerContext,
  type NpmRegistryCache,
  type PackageSpec,
  type RuntimeCache,
  type RuntimeEnvEntry,
  type RuntimeReport,
  runtimeLayout,
  type SystemManager,
  specLockKey,
} from '../runtime';
import { getRuntimeSettings, managerSettings, RUNTIME_SETTINGS_DEFAULTS, type RuntimeSettings } from '../settings';

/** Detection results live this long unless an install, uninstall or update invalidates them first. */
export const RUNTIME_CACHE_TTL_MS = 10 * 60_000;

/** The pip/npm/system managers never run github: specs; those go to the GitHub-release installer's jobs. */
export function assertManagerSpec(spec: PackageSpec): void {
  if (spec.manager === 'github')
    throw new AppError('validation', 'github: specs are installed by the GitHub-release installer.', { issues: [{ path: 'spec', message: 'a github: spec' }] });
}

export interface PackageContextOptions {
  signal?: AbortSignal;
  log?: LineSink;
  /** Who asked, recorded with system packages. */
  actor?: string;
  /** Runtime settings (index URLs, registry, apt auto-update); defaults when absent. */
  settings?: RuntimeSettings;
}

export type RuntimesResponse = RuntimeReport & { env: RuntimeEnvEntry[] };

/**
 * The package side of one runtime dir, as one object built by the composition root: the dir
 * layout (created on first use), the cached detection report, the npm registry cache, and the
 * listeners told when what is installed changed (skill gating must look for binaries again).
 * Route handlers and the worker reach the same instance through the services object.
 */
export class PackageRuntime {
  readonly runtimeDir: string;
  /** Kept for the process, so repeated update checks send conditional requests. */
  readonly npmCache: NpmRegistryCache = createNpmRegistryCache();
  private ensured = false;
  private readonly runtimes: RuntimeCache = createRuntimeCache(RUNTIME_CACHE_TTL_MS);
  private binaries: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(runtimeDir: string) {
    this.runtimeDir = path.resolve(runtimeDir);
  }

  /** The manager context for the runtime dir; the dir layout is created on first use. */
  context(opts: PackageContextOptions = {}): ManagerContext {
    if (!this.ensured) {
      ensureRuntimeDir(this.runtimeDir);
      this.ensured = true;
    }
    return {
      runtimeDir: this.runtimeDir,
      signal: opts.signal,
      log: opts.log,
      settings: managerSettings(opts.settings ?? RUNTIME_SETTINGS_DEFAULTS, opts.actor),
    };
  }

  /** The manager context with the stored runtime settings applied. */
  async loadContext(db: AppDb, opts: Omit<PackageContextOptions, 'settings'> = {}): Promise<ManagerContext> {
    return this.context({ ...opts, settings: await getRuntimeSettings(db) });
  }

  /** What is installed changed (an install, uninstall, update, rollback): drop cached detection and tell the listeners. */
  changed(): void {
    this.runtimes.invalidate();
    for (const fn of this.listeners) {
      try {
        fn();
      } catch {
        /* a listener's failure must not fail the install that told it */
      }
    }
  }

  onChanged(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The runtime report (cached; `refresh` detects again) with the environment skill processes get. */
  async report(opts: { refresh?: boolean; binaries?: string[] } = {}): Promise<RuntimesResponse> {
    const layout = runtimeLayout(this.context().runtimeDir);
    const binaries = (opts.binaries ?? RUNTIME_SETTINGS_DEFAULTS.binaries).join(' ');
    if (opts.refresh) this.changed();
    // A changed binaries setting is a different question: detect again.
    else if (this.binaries !== binaries) this.runtimes.invalidate();
    this.binaries = binaries;
    const report = await this.runtimes.get(layout, opts.binaries ?? RUNTIME_SETTINGS_DEFAULTS.binaries);
    return { ...report, env: describeRuntimeEnv(layout) };
  }

  /** The runtime report with the binaries list from the stored settings. */
  async loadReport(db: AppDb, refresh = false): Promise<RuntimesResponse> {
    return this.report({ refresh, binaries: (await getRuntimeSettings(db)).binaries });
  }
}

/** One advisory-lock key per (manager, canonical name), shared by install, uninstall and update. */
export const packageLockKey = (spec: PackageSpec): number => lockKeyOf(`package:${specLockKey(spec)}`);

/** The global lock of a system manager (apt and apk allow one operation at a time per host). */
export const systemManagerLockKey = (manager: SystemManager): number => lockKeyOf(`system-manager:${manager}`);
