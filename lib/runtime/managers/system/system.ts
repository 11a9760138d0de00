import { AppError } from '../../../core/errors';
import type { InstalledPackage, ManagerContext, OutdatedPackage, PackageSpec, SystemManager } from '../../types';
import { compareDebian } from '../../versions';
import {
  APK,
  APT_CACHE,
  APT_GET,
  aptListsStale,
  checkSystemResult,
  detectSystemManager,
  readSystemDb,
  requireSystemManager,
  resolveSystemPackage,
  runSystem,
  validateSystemName,
  withSystemLock,
} from './exec';
import { parseApkVersionOutput, parseAptPolicy, type SystemDbPackage } from './parsers';
import { findRecordEntry, readSystemRecord, type SystemRecordEntry, writeSystemRecord } from './record';

export { detectSystemManager, resolveSystemPackage, SYSTEM_ALIASES } from './exec';
export { parseApkInstalled, parseDpkgStatus } from './parsers';
export { readSystemRecord, type SystemRecordEntry } from './record';

export interface SystemRunOptions {
  /** Default 20 minutes. */
  timeoutMs?: number;
}

export interface SystemOutdatedResult {
  outdated: OutdatedPackage[];
  errors: { name: string; message: string }[];
}

const APT_ENV = { DEBIAN_FRONTEND: 'noninteractive' };
const CONFOLD = ['-o', 'Dpkg::Options::=--force-confold'];
const NOT_LOCATED = /Unable to locate package|has no installation candidate/;

function toInstalled(manager: SystemManager, db: SystemDbPackage, entry?: SystemRecordEntry): InstalledPackage {
  return {
    manager,
    name: entry?.name ?? db.package,
    version: db.version,
    managed: !!entry,
    location: manager === 'apt' ? 'dpkg' : 'apk',
    ...(db.summary ? { summary: db.summary } : {}),
    ...(entry && entry.name !== entry.package ? { realPackage: entry.package } : {}),
    ...(entry?.installedAt ? { installedAt: entry.installedAt, installedBy: entry.installedBy } : {}),
  };
}

async function installedEntry(manager: SystemManager, pkg: string): Promise<SystemDbPackage | undefined> {
  return (await readSystemDb(manager)).find((p) => p.package === pkg);
}

function managerOf(spec: PackageSpec): SystemManager {
  if (spec.manager !== 'system' && spec.manager !== 'apt' && spec.manager !== 'apk')
    throw new AppError('validation', `${spec.raw} is not a system package spec.`);
  const manager = requireSystemManager();
  const named = spec.systemManager ?? (spec.manager === 'system' ? undefined : spec.manager);
  if (named && named !== manager) throw new AppError('validation', `${spec.raw} names ${named}, but this host's package manager is ${manager}.`);
  return manager;
}

/** The recorded entry for a name, or the refusal for base packages and unknown names. */
async function requireManaged(ctx: ManagerContext, manager: SystemManager, name: string): Promise<{ record: SystemRecordEntry[]; entry: SystemRecordEntry }> {
  validateSystemName(name);
  const record = await readSystemRecord(ctx.runtimeDir);
  const entry = findRecordEntry(record, manager, name) ?? findRecordEntry(record, manager, resolveSystemPackage(manager, name));
  if (entry) return { record, entry };
  if (await installedEntry(manager, resolveSystemPackage(manager, name))) {
    throw new AppError('invalid_state', `${name} came with the system; Skilldock only removes or updates packages it installed.`, {
      details: { manager, class: 'base_package' },
    });
  }
  throw new AppError('not_found', `System package ${name} is not installed.`, { details: { manager, class: 'not_found' } });
}

async function aptGet(ctx: ManagerContext, args: string[], what: string, opts: SystemRunOptions): Promise<void> {
  const run = () => runSystem(ctx, APT_GET, args, { env: APT_ENV, timeoutMs: opts.timeoutMs });
  let res = await run();
  const failedToLocate = res.code !== 0 && !res.aborted && !res.timedOut && NOT_LOCATED.test(`${res.stdout}\n${res.stderr}`);
  const maxAgeMs = Number(ctx.settings?.aptListsMaxAgeHours ?? 24) * 3_600_000;
  if (failedToLocate && ctx.settings?.aptAutoUpdate !== 'off' && aptListsStale(maxAgeMs)) {
    ctx.log?.('The package lists are missing or old; running apt-get update once and retrying.', 'info');
    const upd = await runSystem(ctx, APT_GET, ['update'], { env: APT_ENV, timeoutMs: opts.timeoutMs });
    checkSystemResult('apt', upd, 'apt-get update');
    res = await run();
  }
  checkSystemResult('apt', res, what);
}

/** Installs a system package (alias resolved) and records it as installed here. */
export async function systemInstall(ctx: ManagerContext, spec: PackageSpec, opts: SystemRunOptions = {}): Promise<InstalledPackage> {
  const manager = managerOf(spec);
  const name = validateSystemName(spec.name);
  const pkg = resolveSystemPackage(manager, name);
  return withSystemLock(manager, async () => {
    const record = await readSystemRecord(ctx.runtimeDir);
    const entry = findRecordEntry(record, manager, name);
    const before = await installedEntry(manager, pkg);
    if (before && !entry) {
      ctx.log?.(`${pkg} ${before.version} is already installed with the system; nothing to do.`, 'info');
      return toInstalled(manager, before);
    }
    const what = `${manager} install of ${pkg}`;
    if (manager === 'apt') await aptGet(ctx, ['install', '-y', '--no-install-recommends', ...CONFOLD, pkg], what, opts);
    else checkSystemResult('apk', await runSystem(ctx, APK, ['add', '--no-cache', pkg], { timeoutMs: opts.timeoutMs }), what);
    const after = await installedEntry(manager, pkg);
    if (!after) throw new AppError('internal', `${manager} reported success but ${pkg} is not installed.`, { details: { manager, class: 'unknown' } });
    const next: SystemRecordEntry = {
      name: entry?.name ?? name,
      package: pkg,
      manager,
      version: after.version,
      installedAt: entry?.installedAt ?? new Date().toISOString(),
      installedBy: entry?.installedBy ?? ctx.settings?.actor ?? 'unknown',
    };
    await writeSystemRecord(ctx.runtimeDir, [...record.filter((e) => e !== entry), next]);
    ctx.log?.(`Installed ${pkg} ${after.version}`, 'info');
    return toInstalled(manager, after, next);
  });
}

/** Removes a package Skilldock installed; base packages are refused before any process runs. */
export async function systemUninstall(ctx: ManagerContext, name: string, opts: SystemRunOptions = {}): Promise<void> {
  const manager = requireSystemManager();
  await withSystemLock(manager, async () => {
    const { record, entry } = await requireManaged(ctx, manager, name);
    const what = `${manager} removal of ${entry.package}`;
    if (manager === 'apt') await aptGet(ctx, ['remove', '-y', entry.package], what, opts);
    else checkSystemResult('apk', await runSystem(ctx, APK, ['del', entry.package], { timeoutMs: opts.timeoutMs }), what);
    if (await installedEntry(manager, entry.package)) {
      throw new AppError('internal', `${manager} reported success but ${entry.package} is still installed.`, { details: { manager, class: 'unknown' } });
    }
    await writeSystemRecord(
      ctx.runtimeDir,
      record.filter((e) => e !== entry),
    );
    ctx.log?.(`Removed ${entry.package}`, 'info');
  });
}

/** Upgrades a package Skilldock installed to the newest version the package lists offer. */
export async function systemUpdate(ctx: ManagerContext, name: string, opts: SystemRunOptions = {}): Promise<InstalledPackage> {
  const manager = requireSystemManager();
  return withSystemLock(manager, async () => {
    const { record, entry } = await requireManaged(ctx, manager, name);
    const what = `${manager} update of ${entry.package}`;
    if (manager === 'apt') await aptGet(ctx, ['install', '--only-upgrade', '-y', '--no-install-recommends', ...CONFOLD, entry.package], what, opts);
    else checkSystemResult('apk', await runSystem(ctx, APK, ['add', '-u', '--no-cache', entry.package], { timeoutMs: opts.timeoutMs }), what);
    const after = await installedEntry(manager, entry.package);
    if (!after) throw new AppError('internal', `${entry.package} is not installed after the update.`, { details: { manager, class: 'unknown' } });
    const next = { ...entry, version: after.version };
    await writeSystemRecord(ctx.runtimeDir, [...record.filter((e) => e !== entry), next]);
    return toInstalled(manager, after, next);
  });
}

/** Every installed system package, read from the package database; `managed` when the record names it. */
export async function systemList(ctx: ManagerContext): Promise<InstalledPackage[]> {
  const manager = detectSystemManager();
  if (!manager) return [];
  const [db, record] = await Promise.all([readSystemDb(manager), readSystemRecord(ctx.runtimeDir)]);
  const byPackage = new Map(record.filter((e) => e.manager === manager).map((e) => [e.package, e]));
  const seen = new Map<string, number>();
  for (const p of db) seen.set(p.package, (seen.get(p.package) ?? 0) + 1);
  return db
    .map((p) => {
      const item = toInstalled(manager, p, byPackage.get(p.package));
      // Multi-arch packages installed for several architectures are told apart the way dpkg does.
      return (seen.get(p.package) ?? 0) > 1 && p.arch && !item.managed ? { ...item, name: `${p.package}:${p.arch}` } : item;
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Updates for the packages Skilldock installed, from the current package lists (or after refreshing
 * them with `refreshIndex`, which needs root or sudo and network).
 */
export async function systemOutdated(ctx: ManagerContext, opts: SystemRunOptions & { refreshIndex?: boolean } = {}): Promise<SystemOutdatedResult> {
  const manager = detectSystemManager();
  const result: SystemOutdatedResult = { outdated: [], errors: [] };
  if (!manager) return result;
  const entries = (await readSystemRecord(ctx.runtimeDir)).filter((e) => e.manager === manager);
  if (entries.length === 0) return result;
  if (opts.refreshIndex) {
    await withSystemLock(manager, async () => {
      const cmd = manager === 'apt' ? APT_GET : APK;
      checkSystemResult(
        manager,
        await runSystem(ctx, cmd, ['update'], { env: manager === 'apt' ? APT_ENV : {}, timeoutMs: opts.timeoutMs }),
        `${manager} update`,
      );
    });
  }
  const pkgs = entries.map((e) => e.package);
  if (manager === 'apt') {
    const res = await runSystem(ctx, APT_CACHE, ['policy', ...pkgs], { unprivileged: true, timeoutMs: opts.timeoutMs ?? 120_000 });
    checkSystemResult('apt', res, 'apt-cache policy');
    const policy = parseAptPolicy(res.stdout);
    for (const e of entries) {
      const p = policy.get(e.package);
      if (!p?.installed) result.errors.push({ name: e.name, message: `${e.package} is recorded as installed here but is no longer installed.` });
      else if (p.candidate && compareDebian(p.candidate, p.installed) > 0)
        result.outdated.push({ manager, name: e.name, current: p.installed, latest: p.candidate });
    }
  } else {
    const res = await runSystem(ctx, APK, ['version', '-l', '<', ...pkgs], { unprivileged: true, timeoutMs: opts.timeoutMs ?? 120_000 });
    checkSystemResult('apk', res, 'apk version');
    const byPackage = new Map(entries.map((e) => [e.package, e]));
    for (const u of parseApkVersionOutput(res.stdout)) {
      const e = byPackage.get(u.package);
      if (e) result.outdated.push({ manager, name: e.name, current: u.current, latest: u.latest });
    }
  }
  result.outdated.sort((a, b) => a.name.localeCompare(b.name));
  return result;
}
