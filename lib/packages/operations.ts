import type { AppDb } from '@/db/client';
import { AppError } from '../core/errors';
import { listGithubPackages } from '../github/views';
import {
  detectSystemManager,
  type InstalledPackage,
  type ManagerContext,
  type ManagerName,
  normalizePipName,
  npmInstall,
  npmList,
  npmUninstall,
  npmUpdate,
  type PackageSpec,
  pipInstall,
  pipList,
  pipUninstall,
  pipUpdate,
  systemInstall,
  systemList,
  systemUninstall,
  systemUpdate,
} from '../runtime';
import { assertManagerSpec } from './context';
import { withInstallRecords } from './records';
import type { ListPackagesQuery, PackageAction } from './schemas';

type Family = 'pip' | 'npm' | 'system';
const FAMILIES: Family[] = ['pip', 'npm', 'system'];
const LISTERS: Record<Family, (ctx: ManagerContext) => Promise<InstalledPackage[]>> = { pip: pipList, npm: npmList, system: systemList };

const familyOf = (spec: PackageSpec): Family => {
  assertManagerSpec(spec);
  return spec.manager === 'pip' || spec.manager === 'npm' ? spec.manager : 'system';
};

export interface PackageListResult {
  items: InstalledPackage[];
  /** Managers whose packages could not be read; the others are still listed. */
  errors: { manager: Family | 'github'; message: string }[];
}

/** Installed packages of pip, npm and the system manager, merged, with the query's filters applied. */
/** GitHub-release packages as list rows (their details are on /api/v1/packages/github). */
async function githubInstalled(db: AppDb): Promise<InstalledPackage[]> {
  return (await listGithubPackages(db)).map((g) => ({
    manager: 'github' as const,
    name: g.name,
    version: g.tag,
    managed: true,
    location: g.repo,
    summary: `github:${g.repo} — ${g.binaries.map((b) => b.name).join(', ')}`,
    installedAt: g.installedAt,
    installedBy: g.installedBy,
  }));
}

export async function listPackages(ctx: ManagerContext, query: ListPackagesQuery = {}, db?: AppDb): Promise<PackageListResult> {
  const families = FAMILIES.filter((f) => !query.manager || f === query.manager || (f === 'system' && (query.manager === 'apt' || query.manager === 'apk')));
  const results = await Promise.all(
    families.map(async (f) => {
      try {
        return { f, items: await LISTERS[f](ctx) };
      } catch (e) {
        return { f, items: [] as InstalledPackage[], error: (e as Error).message };
      }
    }),
  );
  const q = query.q?.toLowerCase();
  const items = results
    .flatMap((r) => r.items)
    .filter((p) => !query.manager || query.manager === 'system' || p.manager === query.manager)
    .filter((p) => query.managed === undefined || p.managed === (query.managed === 'true'))
    .filter((p) => !q || p.name.toLowerCase().includes(q) || (p.summary ?? '').toLowerCase().includes(q));
  const errors: PackageListResult['errors'] = results.flatMap((r) => (r.error ? [{ manager: r.f, message: r.error }] : []));
  const github = db && (!query.manager || query.manager === 'github') ? await githubInstalled(db) : [];
  const all = [
    ...(query.manager === 'github' ? [] : items),
    ...github.filter((p) => !q || p.name.toLowerCase().includes(q) || (p.summary ?? '').toLowerCase().includes(q)),
  ];
  return { items: db ? await withInstallRecords(db, all) : all, errors };
}

function matches(spec: PackageSpec, p: InstalledPackage): boolean {
  if (spec.manager === 'pip') return normalizePipName(p.name) === normalizePipName(spec.name);
  if (spec.manager === 'npm') return p.name === spec.name;
  return p.name === spec.name || p.realPackage === spec.name;
}

/** The installed package a spec names: the managed one when both a managed and a base copy exist. */
export async function findInstalled(ctx: ManagerContext, spec: PackageSpec): Promise<InstalledPackage | undefined> {
  const found = (await LISTERS[familyOf(spec)](ctx)).filter((p) => matches(spec, p));
  return found.find((p) => p.managed) ?? found[0];
}

export interface PackageOpResult {
  manager: ManagerName;
  name: string;
  fromVersion: string | null;
  toVersion: string | null;
  durationMs: number;
}

export interface PackageOpOptions {
  /** Exact target version of an update; the newest when absent. */
  toVersion?: string;
  progress?: (percent: number, stage: string) => void;
  /** Called once the manager ran, whatever happened: what is installed may have changed. */
  changed?: () => void;
}

const STAGE: Record<PackageAction, string> = { install: 'installing', uninstall: 'uninstalling', update: 'updating' };

async function apply(ctx: ManagerContext, action: PackageAction, spec: PackageSpec, toVersion: string | undefined): Promise<InstalledPackage | null> {
  const family = familyOf(spec);
  if (toVersion !== undefined && (action !== 'update' || family === 'system')) {
    throw new AppError('validation', 'toVersion applies only to pip and npm updates.', { issues: [{ path: 'toVersion', message: 'not accepted here' }] });
  }
  if (action === 'install') return family === 'pip' ? pipInstall(ctx, spec) : family === 'npm' ? npmInstall(ctx, spec) : systemInstall(ctx, spec);
  if (action === 'update')
    return family === 'pip' ? pipUpdate(ctx, spec.name, toVersion) : family === 'npm' ? npmUpdate(ctx, spec.name, toVersion) : systemUpdate(ctx, spec.name);
  if (family === 'pip') await pipUninstall(ctx, spec.name);
  else if (family === 'npm') await npmUninstall(ctx, spec.name);
  else await systemUninstall(ctx, spec.name);
  return null;
}

/**
 * Runs one install, uninstall or update through its manager and verifies the outcome. The caller
 * holds the package lock. `changed` is called afterwards whatever happened.
 */
export async function runPackageOp(ctx: ManagerContext, action: PackageAction, spec: PackageSpec, opts: PackageOpOptions = {}): Promise<PackageOpResult> {
  const started = Date.now();
  const progress = opts.progress ?? (() => undefined);
  const family = familyOf(spec);
  try {
    progress(10, 'resolving');
    const before = await findInstalled(ctx, spec);
    ctx.log?.(
      before ? `Currently installed: ${before.name} ${before.version}${before.managed ? '' : ' (base package)'}` : `${spec.name} is not installed yet.`,
      'info',
    );
    progress(25, STAGE[action]);
    const result = await apply(ctx, action, spec, opts.toVersion);
    progress(90, 'verifying');
    const after = await findInstalled(ctx, spec);
    if (action === 'uninstall' && after?.managed) {
      throw new AppError('internal', `${after.name} ${after.version} is still listed after the uninstall; see the job log.`, {
        details: { manager: after.manager, class: 'unknown' },
      });
    }
    if (action !== 'uninstall' && !after) {
      throw new AppError('internal', `${spec.name} is not listed after the ${action}; see the job log.`, {
        details: { manager: spec.manager, class: 'unknown' },
      });
    }
    const fromVersion = before?.version ?? null;
    const toVersion = action === 'uninstall' ? null : (result?.version ?? after?.version ?? null);
    ctx.log?.(`${spec.name}: ${fromVersion ?? '(none)'} → ${toVersion ?? '(removed)'}`, 'info');
    const manager: ManagerName = after?.manager ?? before?.manager ?? (family === 'system' ? (detectSystemManager() ?? 'apt') : family);
    return { manager, name: after?.name ?? before?.name ?? spec.name, fromVersion, toVersion, durationMs: Date.now() - started };
  } finally {
    opts.changed?.();
  }
}
