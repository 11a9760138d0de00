import path from 'node:path';
import { childEnv } from '../../../core/child-env';
import { AppError } from '../../../core/errors';
import { type RunResult, runProcess } from '../../../core/process';
import { classifyPackageError, packageError } from '../../errors';
import type { ManagerContext } from '../../types';

export const PIP_PYTHON = 'python3';
/** PEP 508 project and extra names. */
export const PIP_NAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** A PEP 440 specifier list, e.g. `==1.2.3`, `>=2,<3`, `~=1.4`, `==1.*`. */
export const PIP_SPECIFIER_RE = /^(?:===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+(?:\s*,\s*(?:===|==|!=|~=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+)*$/;
export const PIP_VERSION_RE = /^[A-Za-z0-9][A-Za-z0-9.+!_-]*$/;

export function assertPipName(name: string, field = 'name'): void {
  if (!PIP_NAME_RE.test(name)) {
    throw new AppError('validation', `"${name}" is not a valid pip package name.`, {
      issues: [{ path: field, message: `must match ${PIP_NAME_RE.source}` }],
    });
  }
}

export interface PipVersion {
  major: number;
  minor: number;
  text: string;
}

// process-wide: a fact of the interpreter binary at that path, the same for every service
const pipVersions = new Map<string, Promise<PipVersion>>();

async function probePipVersion(python: string): Promise<PipVersion> {
  const r = await runProcess(python, ['-m', 'pip', '--version'], { timeoutMs: 30_000, env: pipEnv() });
  const m = /^pip (\d+)\.(\d+)(?:\.\S+)?/m.exec(r.stdout);
  if (r.code !== 0 || !m) {
    throw new AppError('unavailable', `pip is not available for ${python}: ${(r.stderr || r.stdout).trim().slice(0, 300)}. Install python3-pip.`, {
      details: { manager: 'pip' },
    });
  }
  return { major: Number(m[1]), minor: Number(m[2]), text: `${m[1]}.${m[2]}` };
}

/** pip's version, asked once per interpreter (a failed probe is not cached). */
export function pipVersion(python = PIP_PYTHON): Promise<PipVersion> {
  let p = pipVersions.get(python);
  if (!p) {
    p = probePipVersion(python);
    pipVersions.set(python, p);
    p.catch(() => pipVersions.delete(python));
  }
  return p;
}

export function pipAtLeast(v: PipVersion, major: number, minor = 0): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}

/** Options every pip call gets, limited to those this pip version knows. */
export function pipCommonFlags(v: PipVersion): string[] {
  const flags = ['--disable-pip-version-check'];
  if (pipAtLeast(v, 10)) flags.push('--no-input');
  return flags;
}

export interface PipIndexSettings {
  indexUrl?: string;
  extraIndexUrls: string[];
  findLinks: string[];
  noIndex: boolean;
}

function checkLocation(value: string, field: string): string {
  let ok = false;
  if (/^https?:\/\//i.test(value)) {
    try {
      const u = new URL(value);
      ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      ok = false;
    }
  } else ok = path.isAbsolute(value);
  if (!ok || value.startsWith('-') || /[\s\0]/.test(value)) {
    throw new AppError('validation', `Setting ${field} holds "${value}", which is neither an http(s) URL nor an absolute path.`, {
      issues: [{ path: `settings.${field}`, message: 'an http(s) URL or an absolute path' }],
    });
  }
  return value;
}

/** Index settings from `ctx.settings`; list settings are whitespace separated, like pip's own env vars. */
export function pipIndexSettings(settings: ManagerContext['settings']): PipIndexSettings {
  const list = (field: string) =>
    (settings?.[field] ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((v) => checkLocation(v, field));
  const index = list('pipIndexUrl');
  if (index.length > 1)
    throw new AppError('validation', 'Setting pipIndexUrl takes a single URL.', { issues: [{ path: 'settings.pipIndexUrl', message: 'one URL' }] });
  return {
    indexUrl: index[0],
    extraIndexUrls: list('pipExtraIndexUrl'),
    findLinks: list('pipFindLinks'),
    noIndex: /^(1|true|yes|on)$/i.test(settings?.pipNoIndex ?? ''),
  };
}

export function pipIndexFlags(s: PipIndexSettings): string[] {
  const flags: string[] = [];
  if (s.noIndex) flags.push('--no-index');
  else {
    if (s.indexUrl) flags.push('--index-url', s.indexUrl);
    for (const u of s.extraIndexUrls) flags.push('--extra-index-url', u);
  }
  for (const f of s.findLinks) flags.push('--find-links', f);
  return flags;
}

/**
 * pip's environment: the allowlisted one (so no PIP_TARGET, PIP_USER… of the server's own env turns a
 * --target install into something else), python3 found on the host PATH, never in the runtime dir.
 */
export function pipEnv(runtimeDir?: string): NodeJS.ProcessEnv {
  return childEnv({ PYTHONIOENCODING: 'utf-8' }, { excludeFromPath: runtimeDir ? [runtimeDir] : [] });
}

/** An argument list for the job log, with passwords in index URLs masked. */
export function describePipArgs(args: readonly string[]): string {
  return args.map((a) => a.replace(/^(https?:\/\/)[^/@\s]+@/i, '$1***@')).join(' ');
}

export interface PipProcessOptions {
  timeoutMs: number;
  what: string;
}

/** Runs `python3 -m pip …` with output to the job log; a failure becomes a classified package error. */
export async function runPip(ctx: ManagerContext, args: string[], opts: PipProcessOptions): Promise<RunResult> {
  ctx.log?.(`$ ${PIP_PYTHON} -m pip ${describePipArgs(args)}`, 'info');
  const r = await runProcess(PIP_PYTHON, ['-m', 'pip', ...args], {
    timeoutMs: opts.timeoutMs,
    maxOutputBytes: 2 * 1024 * 1024,
    signal: ctx.signal,
    env: pipEnv(ctx.runtimeDir),
    onLine: ctx.log ? (line, stream) => ctx.log!(line, stream) : undefined,
  });
  if (r.aborted) throw new AppError('invalid_state', `${opts.what} was canceled.`, { details: { manager: 'pip', class: 'canceled' } });
  if (r.timedOut) throw packageError('pip', 'timeout', opts.what);
  if (r.code !== 0) {
    const output = `${r.stdout}\n${r.stderr}`;
    throw packageError('pip', classifyPackageError('pip', output), opts.what, r.stderr || r.stdout);
  }
  return r;
}

/** Flags for `pip install` into a staging dir, limited to those this pip version knows. */
export function pipInstallFlags(v: PipVersion): string[] {
  const flags: string[] = [];
  // The staging dir's bin/ is never on PATH, so pip's warning about it is noise in the job log.
  if (pipAtLeast(v, 10)) flags.push('--no-warn-script-location', '--progress-bar', 'off');
  if (pipAtLeast(v, 22, 1) && process.getuid?.() === 0) flags.push('--root-user-action=ignore');
  return flags;
}

// process-wide: a fact of the interpreter binary at that path, as above
const sitePackages = new Map<string, Promise<string[]>>();

const SITE_SCRIPT =
  'import json, site\n' +
  "user = site.getusersitepackages() if hasattr(site, 'getusersitepackages') else None\n" +
  "print(json.dumps({'user': user, 'site': site.getsitepackages() if hasattr(site, 'getsitepackages') else []}))";

async function probeSitePackages(python: string): Promise<string[]> {
  const r = await runProcess(python, ['-c', SITE_SCRIPT], { timeoutMs: 30_000, env: pipEnv() });
  if (r.code !== 0) throw new AppError('unavailable', `${python} could not report its site-packages: ${r.stderr.trim().slice(0, 300)}`);
  const parsed = JSON.parse(r.stdout) as { user?: unknown; site?: unknown };
  const dirs = [parsed.user, ...(Array.isArray(parsed.site) ? parsed.site : [])];
  // sys.path order: the user site comes before the interpreter's own site-packages.
  return [...new Set(dirs.filter((d): d is string => typeof d === 'string' && path.isAbsolute(d)))];
}

/** The interpreter's site-packages directories (user site first), asked once per interpreter. */
export function pipSitePackages(python = PIP_PYTHON): Promise<string[]> {
  let p = sitePackages.get(python);
  if (!p) {
    p = probeSitePackages(python);
    sitePackages.set(python, p);
    p.catch(() => sitePackages.delete(python));
  }
  return p;
}
