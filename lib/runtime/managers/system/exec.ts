import fs from 'node:fs';
import os from 'node:os';
import { childEnv } from '../../../core/child-env';
import { AppError } from '../../../core/errors';
import { type RunResult, runProcess } from '../../../core/process';
import { classifyPackageError, packageError } from '../../errors';
import type { ManagerContext, SystemManager } from '../../types';
import { parseApkInstalled, parseDpkgStatus, type SystemDbPackage } from './parsers';

export const APT_GET = '/usr/bin/apt-get';
export const APT_CACHE = '/usr/bin/apt-cache';
export const APK = '/sbin/apk';
const DPKG_STATUS = '/var/lib/dpkg/status';
const APK_INSTALLED = '/lib/apk/db/installed';

/** The host's system package manager, or null when there is neither apt nor apk. */
export function detectSystemManager(): SystemManager | null {
  if (fs.existsSync(APT_GET) && fs.existsSync('/etc/debian_version')) return 'apt';
  if (fs.existsSync(APK)) return 'apk';
  return null;
}

export function requireSystemManager(): SystemManager {
  const m = detectSystemManager();
  if (!m)
    throw new AppError('unavailable', 'No supported system package manager here (apt-get on Debian/Ubuntu, or apk on Alpine).', {
      details: { class: 'unknown' },
    });
  return m;
}

/** User-facing names whose real package differs. */
export const SYSTEM_ALIASES: Record<SystemManager, Record<string, string>> = {
  apt: { pip3: 'python3-pip', 'github-cli': 'gh', go: 'golang-go', golang: 'golang-go' },
  apk: { pip3: 'py3-pip', gh: 'github-cli', golang: 'go' },
};

/** User-facing names, then the real package names per manager. */
const SYSTEM_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
const REAL_NAME: Record<SystemManager, RegExp> = { apt: /^[a-z0-9][a-z0-9+.-]{0,127}$/, apk: /^[a-z0-9][a-z0-9._+-]{0,127}$/ };

export function validateSystemName(name: string): string {
  if (!SYSTEM_NAME.test(name)) {
    throw new AppError('validation', `"${name}" is not a valid system package name.`, {
      issues: [{ path: 'name', message: `must match ${SYSTEM_NAME.source}` }],
    });
  }
  return name;
}

export function resolveSystemPackage(manager: SystemManager, name: string): string {
  const real = SYSTEM_ALIASES[manager][validateSystemName(name)] ?? name;
  if (!REAL_NAME[manager].test(real)) {
    throw new AppError('validation', `"${real}" is not a valid ${manager} package name.`, {
      issues: [{ path: 'name', message: `must match ${REAL_NAME[manager].source}` }],
    });
  }
  return real;
}

// process-wide: one queue per system package manager of the host, whose lock is host-wide
const queues = new Map<SystemManager, Promise<unknown>>();

/** One operation at a time per system manager inside this process; DB locks are the caller's. */
export function withSystemLock<T>(manager: SystemManager, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(manager) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(manager, tail);
  void tail.then(() => {
    if (queues.get(manager) === tail) queues.delete(manager);
  });
  return run;
}

export const isRoot = () => process.getuid?.() === 0;

function baseEnv(runtimeDir: string): Record<string, string> {
  return childEnv({ LC_ALL: 'C', HOME: process.env.HOME ?? '/root' }, { excludeFromPath: [runtimeDir] });
}

export interface SystemRunOptions {
  timeoutMs?: number;
  /** Runs without root (read-only queries). */
  unprivileged?: boolean;
  env?: Record<string, string>;
}

/**
 * Runs a system manager command: directly as root, otherwise through `sudo -n`, which never prompts.
 * Extra env goes to sudo as `VAR=value` arguments (sudo resets the environment). Everything but the
 * read-only queries is a package transaction: a cancel or a shutdown waits for it to end.
 */
export async function runSystem(ctx: ManagerContext, command: string, args: string[], opts: SystemRunOptions = {}): Promise<RunResult> {
  const direct = opts.unprivileged || isRoot();
  const extra = Object.entries(opts.env ?? {});
  const [cmd, argv] = direct ? [command, args] : ['sudo', ['-n', ...extra.map(([k, v]) => `${k}=${v}`), command, ...args]];
  ctx.log?.(`$ ${[cmd, ...argv].join(' ')}`, 'info');
  try {
    return await runProcess(cmd, argv, {
      env: { ...baseEnv(ctx.runtimeDir), ...(direct ? Object.fromEntries(extra) : {}) } as NodeJS.ProcessEnv,
      critical: !opts.unprivileged,
      timeoutMs: opts.timeoutMs ?? 20 * 60_000,
      maxOutputBytes: 2 * 1024 * 1024,
      signal: ctx.signal,
      onLine: (line, stream) => ctx.log?.(line, stream),
    });
  } catch (e) {
    if (!direct) throw sudoError(commandManager(command), `sudo could not be started: ${(e as Error).message}`);
    throw e;
  }
}

const commandManager = (command: string): SystemManager => (command === APK ? 'apk' : 'apt');

function sudoError(manager: SystemManager, excerpt: string): AppError {
  const user = os.userInfo().username;
  const tool = manager === 'apt' ? '/usr/bin/apt-get' : '/sbin/apk';
  return new AppError(
    'unavailable',
    `Skilldock runs as ${user}, not root, and sudo -n failed (${excerpt.trim().slice(0, 200)}). Grant passwordless sudo for ${manager === 'apt' ? 'apt-get' : 'apk'} to user ${user} (e.g. "${user} ALL=(root) NOPASSWD:SETENV: ${tool}"), or pre-install the package.`,
    { details: { manager, class: 'permission' } },
  );
}

/** Turns a failed run into a classified package error; returns normally on success. */
export function checkSystemResult(manager: SystemManager, res: RunResult, what: string): void {
  if (res.aborted) throw new AppError('invalid_state', `${what} was canceled.`, { details: { manager, class: 'canceled' } });
  if (res.timedOut) throw packageError(manager, 'timeout', what);
  if (res.code === 0) return;
  const output = `${res.stdout}\n${res.stderr}`;
  const sudo = /^sudo: .*$/m.exec(res.stderr);
  if (!isRoot() && sudo) throw sudoError(manager, sudo[0]);
  const errors = output
    .split('\n')
    .filter((l) => /^(E|W|ERROR):/.test(l.trim()))
    .join('\n');
  throw packageError(manager, classifyPackageError(manager, output), what, errors || output);
}

/** Installed packages straight from the package database (no process). */
export async function readSystemDb(manager: SystemManager): Promise<SystemDbPackage[]> {
  const file = manager === 'apt' ? DPKG_STATUS : APK_INSTALLED;
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return manager === 'apt' ? parseDpkgStatus(text) : parseApkInstalled(text);
}

const LISTS_DIR = '/var/lib/apt/lists';

/** apt's package lists are missing, or were last refreshed longer than `maxAgeMs` ago. */
export function aptListsStale(maxAgeMs: number): boolean {
  let names: string[];
  try {
    names = fs.readdirSync(LISTS_DIR).filter((n) => n.endsWith('_Packages') || n.includes('_Packages.'));
  } catch {
    return true;
  }
  if (names.length === 0) return true;
  // apt keeps the server's Last-Modified on list files, so their own mtimes say little about the last refresh.
  const stamps = [LISTS_DIR, '/var/cache/apt/pkgcache.bin', '/var/lib/apt/periodic/update-success-stamp'].map((f) => {
    try {
      return fs.statSync(/*turbopackIgnore: true*/ f).mtimeMs;
    } catch {
      return 0;
    }
  });
  return Date.now() - Math.max(...stamps) > maxAgeMs;
}
