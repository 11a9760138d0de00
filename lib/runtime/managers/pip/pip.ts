import fs from 'node:fs';
import path from 'node:path';
import { satisfies as pep440Satisfies, valid as pep440Valid } from '@renovatebot/pep440';
import { mapLimit } from '../../../core/concurrency';
import { AppError, isAppError } from '../../../core/errors';
import { ensureRuntimeDir, runtimeLayout } from '../../dir';
import { normalizePipName } from '../../spec';
import type { InstalledPackage, ManagerContext, OutdatedPackage, PackageSpec } from '../../types';
import { comparePep440, isPep440Prerelease } from '../../versions';
import {
  assertPipName,
  PIP_SPECIFIER_RE,
  PIP_VERSION_RE,
  pipAtLeast,
  pipCommonFlags,
  pipIndexFlags,
  pipIndexSettings,
  pipInstallFlags,
  pipSitePackages,
  pipVersion,
  runPip,
} from './cmd';
import { findPipDistInfos, listPipDistributions, type PipDistribution, readPipMetadataHeaders, splitPipDistInfoName } from './metadata';
import { pipAvailableVersions } from './package-index';
import { pipRecordPaths, planPipRemoval, removePipFiles } from './record';
import { mergePipStage } from './stage';

export { type PipIndexSettings, type PipVersion, pipIndexSettings, pipSitePackages, pipVersion } from './cmd';
export { listPipDistributions, type PipDistribution, parsePipMetadataHeaders, readPipMetadataHeaders } from './metadata';
export { parsePipIndexVersions, pipAvailableVersions, pipVersionFromFilename } from './package-index';
export { parsePipRecord, pipRecordPaths, resolvePipRecordPath } from './record';

export interface PipInstallOptions {
  /** Replace an installed version even when it already satisfies the spec. */
  upgrade?: boolean;
  /** Default 10 minutes. */
  timeoutMs?: number;
}

export interface PipUninstallResult {
  name: string;
  version: string;
  /** Paths removed, relative to the pip target dir; directories end with `/`. */
  removed: string[];
}

export interface PipOutdatedOptions {
  /** Offer pre-releases too. */
  pre?: boolean;
  /** Index look-ups in flight at once. */
  concurrency?: number;
  /** Per look-up. */
  timeoutMs?: number;
}

export interface PipOutdatedResult {
  outdated: OutdatedPackage[];
  errors: { name: string; message: string; class?: string }[];
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

// Installs and uninstalls share files (dependencies, bin/), so they never overlap within one target.
// process-wide: a mutex per target folder on disk: two services in one process must not write one folder at once
const targetLocks = new Map<string, Promise<unknown>>();
function withTargetLock<T>(target: string, fn: () => Promise<T>): Promise<T> {
  const run = (targetLocks.get(target) ?? Promise.resolve()).then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  targetLocks.set(target, tail);
  void tail.then(() => targetLocks.get(target) === tail && targetLocks.delete(target));
  return run;
}

function toInstalled(d: PipDistribution, managed: boolean): InstalledPackage {
  return { manager: 'pip', name: d.name, version: d.version, managed, location: d.location, ...(d.summary ? { summary: d.summary } : {}) };
}

function newest(dists: PipDistribution[]): PipDistribution | undefined {
  return [...dists].sort((a, b) => (pep440Valid(a.version) && pep440Valid(b.version) ? comparePep440(b.version, a.version) : 0))[0];
}

/** The installed distribution of `name` in `dir` (the newest, should stale dist-infos linger). */
async function findInstalled(dir: string, name: string): Promise<PipDistribution | undefined> {
  const found: PipDistribution[] = [];
  for (const entry of await findPipDistInfos(dir, name)) {
    const location = path.join(dir, entry);
    const h = await readPipMetadataHeaders(path.join(location, 'METADATA'));
    const fromDir = splitPipDistInfoName(entry)!;
    found.push({ name: h?.name ?? fromDir.name, version: h?.version ?? fromDir.version, summary: h?.summary, location });
  }
  return newest(found);
}

async function notManaged(name: string): Promise<AppError> {
  const sites = await pipSitePackages().catch(() => [] as string[]);
  for (const dir of sites) {
    const base = (await listPipDistributions(dir, { eggInfo: true })).find((d) => normalizePipName(d.name) === normalizePipName(name));
    if (base)
      return new AppError('invalid_state', `${base.name} came with the Python installation; Skilldock only changes pip packages it installed.`, {
        details: { manager: 'pip' },
      });
  }
  return new AppError('not_found', `pip package ${name} is not installed in the runtime dir.`, { details: { manager: 'pip', class: 'not_found' } });
}

function requirementOf(spec: PackageSpec): string {
  if (spec.manager !== 'pip')
    throw new AppError('validation', `${spec.raw} is not a pip package spec.`, { issues: [{ path: 'spec', message: 'expected pip:name' }] });
  assertPipName(spec.name);
  for (const e of spec.extras ?? []) assertPipName(e, 'extras');
  if (spec.version !== undefined && !PIP_SPECIFIER_RE.test(spec.version)) {
    throw new AppError('validation', `"${spec.version}" is not a PEP 440 version specifier.`, {
      issues: [{ path: 'version', message: 'e.g. ==1.2.3 or >=2,<3' }],
    });
  }
  return `${spec.name}${spec.extras?.length ? `[${spec.extras.join(',')}]` : ''}${spec.version ?? ''}`;
}

function satisfied(version: string, specifier: string | undefined): boolean {
  if (!specifier) return true;
  try {
    return pep440Satisfies(version, specifier);
  } catch {
    return false;
  }
}

/**
 * Installs into the runtime dir: pip installs into a fresh staging dir next to the target, and the
 * result is merged in (see mergePipStage). `--target` installs are never externally managed, so
 * `--break-system-packages` is never passed; nor is `--upgrade`, which does nothing for
 * an empty target (with --target pip ignores what is installed anyway).
 */
export async function pipInstall(ctx: ManagerContext, spec: PackageSpec, opts: PipInstallOptions = {}): Promise<InstalledPackage> {
  const requirement = requirementOf(spec);
  const index = pipIndexSettings(ctx.settings);
  const layout = ensureRuntimeDir(ctx.runtimeDir);
  const what = `pip install of ${requirement}`;
  return withTargetLock(layout.pip, async () => {
    const current = await findInstalled(layout.pip, spec.name);
    if (current && !opts.upgrade && !spec.extras?.length && satisfied(current.version, spec.version)) {
      ctx.log?.(`${current.name} ${current.version} is already installed in the runtime dir.`, 'info');
      return toInstalled(current, true);
    }
    const pip = await pipVersion();
    if (!pipAtLeast(pip, 9)) {
      throw new AppError('unavailable', `pip ${pip.text} is too old; Skilldock needs pip 9 or later (python3 -m pip install --upgrade pip).`, {
        details: { manager: 'pip' },
      });
    }
    const stage = await fs.promises.mkdtemp(path.join(layout.tmp, 'pip-stage-'));
    try {
      const args = [
        'install',
        '--target',
        stage,
        '--cache-dir',
        layout.pipCache,
        ...pipCommonFlags(pip),
        ...pipInstallFlags(pip),
        ...pipIndexFlags(index),
        requirement,
      ];
      await runPip(ctx, args, { timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, what });
      const dists = await mergePipStage(stage, layout.pip, ctx.log);
      ctx.log?.(`Installed ${dists.map((d) => `${d.name} ${d.version}`).join(', ')} into ${layout.pip}`, 'info');
    } finally {
      await fs.promises.rm(stage, { recursive: true, force: true });
    }
    const installed = await findInstalled(layout.pip, spec.name);
    if (!installed) {
      throw new AppError('internal', `pip reported success but ${spec.name} has no dist-info in ${layout.pip}.`, {
        details: { manager: 'pip', class: 'unknown' },
      });
    }
    return toInstalled(installed, true);
  });
}

/** Updates a managed package to `toVersion` (an exact version) or to the newest stable one. */
export async function pipUpdate(ctx: ManagerContext, name: string, toVersion?: string, opts: { timeoutMs?: number } = {}): Promise<InstalledPackage> {
  assertPipName(name);
  if (toVersion !== undefined && (!PIP_VERSION_RE.test(toVersion) || pep440Valid(toVersion) === null)) {
    throw new AppError('validation', `An update goes to an exact version; "${toVersion}" is not a PEP 440 version.`, {
      issues: [{ path: 'toVersion', message: 'must be an exact PEP 440 version' }],
    });
  }
  const current = await findInstalled(runtimeLayout(ctx.runtimeDir).pip, name);
  if (!current) throw await notManaged(name);
  const version = toVersion === undefined ? undefined : `==${toVersion}`;
  const spec: PackageSpec = { raw: `pip:${name}${version ?? ''}`, manager: 'pip', name, ...(version ? { version } : {}) };
  const installed = await pipInstall(ctx, spec, { upgrade: true, timeoutMs: opts.timeoutMs });
  ctx.log?.(`${installed.name}: ${current.version} → ${installed.version}`, 'info');
  return installed;
}

/**
 * Removes a managed package. pip cannot uninstall from a --target dir, so the files its RECORD lists
 * are removed here, after every one of them has been checked to lie inside the target.
 */
export async function pipUninstall(ctx: ManagerContext, name: string): Promise<PipUninstallResult> {
  assertPipName(name);
  const target = runtimeLayout(ctx.runtimeDir).pip;
  return withTargetLock(target, async () => {
    const current = await findInstalled(target, name);
    if (!current) throw await notManaged(name);
    const plans: { dir: string; files: string[] }[] = [];
    for (const entry of await findPipDistInfos(target, name)) {
      const dir = path.join(target, entry);
      const record = await fs.promises.readFile(path.join(dir, 'RECORD'), 'utf8').catch(() => undefined);
      if (record === undefined) {
        throw new AppError('invalid_state', `${entry} has no RECORD, so its files are unknown; remove the package by hand.`, { details: { manager: 'pip' } });
      }
      plans.push({ dir, files: await planPipRemoval(target, pipRecordPaths(record)) });
    }
    ctx.log?.(`Removing ${current.name} ${current.version} from ${target}`, 'info');
    const removed = new Set<string>();
    for (const plan of plans) {
      for (const r of await removePipFiles(target, plan.files)) removed.add(r);
      if (fs.existsSync(plan.dir)) {
        await fs.promises.rm(plan.dir, { recursive: true, force: true });
        removed.add(`${path.relative(target, plan.dir)}/`);
      }
    }
    const left = plans.flatMap((p) => p.files).filter((f) => fs.existsSync(f));
    if (left.length || (await findPipDistInfos(target, name)).length) {
      throw new AppError('internal', `${current.name} is still partly installed (${left.slice(0, 3).join(', ')}); remove it by hand or retry.`, {
        details: { manager: 'pip', class: 'unknown' },
      });
    }
    ctx.log?.(`Removed ${current.name} (${removed.size} paths)`, 'info');
    return { name: current.name, version: current.version, removed: [...removed].sort() };
  });
}

/** Managed packages (the runtime dir, read from METADATA without running pip) and the interpreter's own (read only). */
export async function pipList(ctx: ManagerContext): Promise<InstalledPackage[]> {
  const target = runtimeLayout(ctx.runtimeDir).pip;
  const managed = (await listPipDistributions(target)).map((d) => toInstalled(d, true));
  let sites: string[] = [];
  try {
    sites = await pipSitePackages();
  } catch (e) {
    ctx.log?.(`Base Python packages are not listed: ${(e as Error).message}`, 'info');
  }
  const realTarget = await fs.promises.realpath(target).catch(() => target);
  const seen = new Set<string>();
  const base: InstalledPackage[] = [];
  for (const dir of sites) {
    if ((await fs.promises.realpath(dir).catch(() => dir)) === realTarget) continue;
    for (const d of await listPipDistributions(dir, { eggInfo: true })) {
      const key = normalizePipName(d.name);
      if (seen.has(key)) continue;
      seen.add(key);
      base.push(toInstalled(d, false));
    }
  }
  return [...managed, ...base];
}

/** Newer versions of managed packages on the configured index; one failed look-up does not hide the others. */
export async function pipOutdated(ctx: ManagerContext, names?: readonly string[], opts: PipOutdatedOptions = {}): Promise<PipOutdatedResult> {
  const index = pipIndexSettings(ctx.settings);
  const installed = new Map<string, PipDistribution[]>();
  for (const d of await listPipDistributions(runtimeLayout(ctx.runtimeDir).pip)) {
    const key = normalizePipName(d.name);
    installed.set(key, [...(installed.get(key) ?? []), d]);
  }
  const errors: PipOutdatedResult['errors'] = [];
  const wanted: PipDistribution[] = [];
  for (const name of names ?? [...installed.keys()]) {
    assertPipName(name);
    const d = newest(installed.get(normalizePipName(name)) ?? []);
    if (d) wanted.push(d);
    else errors.push({ name, message: `pip package ${name} is not installed in the runtime dir.`, class: 'not_found' });
  }
  const outdated: OutdatedPackage[] = [];
  await mapLimit(wanted, opts.concurrency ?? 4, async (d) => {
    try {
      const available = await pipAvailableVersions(ctx, d.name, index, () => pipVersion(), { pre: opts.pre, timeoutMs: opts.timeoutMs });
      if (!available.length) {
        throw new AppError('not_found', `The configured index offers no versions of ${d.name}.`, { details: { manager: 'pip', class: 'not_found' } });
      }
      const candidates = available.filter((v) => pep440Valid(v) !== null && (opts.pre || !isPep440Prerelease(v)));
      const latest = candidates.sort((a, b) => comparePep440(b, a))[0];
      if (latest && comparePep440(latest, d.version) > 0) {
        outdated.push({ manager: 'pip', name: d.name, current: d.version, latest, ...(isPep440Prerelease(latest) ? { prerelease: true } : {}) });
      }
    } catch (e) {
      const cls = isAppError(e) ? e.details?.class : undefined;
      errors.push({ name: d.name, message: (e as Error).message, ...(typeof cls === 'string' ? { class: cls } : {}) });
    }
  });
  outdated.sort((a, b) => a.name.localeCompare(b.name));
  return { outdated, errors };
}
