/** The packages API's shapes, taken from the contracts' schemas (type-only), and the runtime page's view helpers. */
import { coerce, gt } from 'semver';
import type { z } from 'zod';
import type {
  applyAllOut,
  depsInstallOut,
  depsReportOut,
  githubOverviewOut,
  githubReleasesOut,
  historyOut,
  refreshOut,
  updateItemOut,
  updatesOut,
} from '@/lib/api/package-schemas';
import type { installedPackageOut, packageListOut, runtimesOut } from '@/lib/api/schemas';
import type { githubOverridesInput } from '@/lib/github/schemas';
import { normalizePipName } from '@/lib/runtime/spec';

export type InstalledPackage = z.output<typeof installedPackageOut>;
export type RuntimeReport = z.output<typeof runtimesOut>;
export type ToolStatus = RuntimeReport['binaries'][number];
export type Readiness = RuntimeReport['managers']['pip'];
export type EnvEntry = RuntimeReport['env'][number];

export type PackageList = z.output<typeof packageListOut>;

/** The tabs of the packages card and the manager filter each one sends. */
export const TABS = [
  { id: 'system', label: 'System', manager: 'system', prefix: 'system', readiness: 'system' },
  { id: 'python', label: 'Python', manager: 'pip', prefix: 'pip', readiness: 'pip' },
  { id: 'node', label: 'Node', manager: 'npm', prefix: 'npm', readiness: 'npm' },
] as const;
export type ManagerTabId = (typeof TABS)[number]['id'];
export const MANAGER_TAB_IDS: readonly ManagerTabId[] = TABS.map((t) => t.id);

/** The sections of /runtime, each its own view (?tab=…), so the page is never one long scroll. */
export const SECTIONS = [
  { id: 'overview', label: 'Overview' },
  { id: 'packages', label: 'Packages' },
  { id: 'updates', label: 'Updates' },
  { id: 'github', label: 'GitHub' },
  { id: 'deps', label: 'Dependencies' },
  { id: 'env', label: 'Environment' },
] as const;
export type SectionId = (typeof SECTIONS)[number]['id'];
export const SECTION_IDS: readonly SectionId[] = SECTIONS.map((s) => s.id);

export const SORT_KEYS = ['name', '-name', 'version', '-version'] as const;
export type PackageSort = (typeof SORT_KEYS)[number];

export const UPDATE_SORTS = ['source', '-source', 'name', '-name'] as const;
export type UpdateSort = (typeof UPDATE_SORTS)[number];

export type PackageAction = 'install' | 'update' | 'uninstall';

/** The spec that names an installed package for update/uninstall (no version). */
export function packageSpec(p: InstalledPackage): string {
  if (p.manager === 'pip' || p.manager === 'npm') return `${p.manager}:${p.name}`;
  if (p.manager === 'apt' || p.manager === 'apk') return `system:${p.name}`;
  return `${p.manager}:${p.name}`;
}

export type UpdateItem = z.output<typeof updateItemOut>;
export type UpdatesView = z.output<typeof updatesOut>;
export type UpdateSourceState = UpdatesView['sources'][number];
export type RefreshResponse = z.output<typeof refreshOut>;
export type ApplyAllResponse = z.output<typeof applyAllOut>;
export type HistoryView = z.output<typeof historyOut>;
export type DepsReport = z.output<typeof depsReportOut>;
export type DepsInstallOut = z.output<typeof depsInstallOut>;

/** One Update All row in the parent job's result, as the batch parent writes it. */
export type { BatchRow as UpdateAllRow } from '@/lib/packages/job-kinds';

/**
 * The key that ties a job, an installed package and an update row to the same package:
 * apt/apk/system share one key, pip names are compared the PEP 503 way (the server's own function).
 */
export function pkgKey(manager: string, name: string): string {
  const m = manager === 'apt' || manager === 'apk' ? 'system' : manager;
  return `${m}:${m === 'pip' ? normalizePipName(name) : name}`;
}

/** What the updates table says about one installed package: an update to offer, already at the latest, or not known yet. */
export type UpdateOffer = { state: 'available'; latest: string; pinned: boolean } | { state: 'latest'; checkedAt: string } | { state: 'unknown' };

export function updateOffer(view: UpdatesView | undefined, manager: string, name: string): UpdateOffer {
  if (!view) return { state: 'unknown' };
  const key = pkgKey(manager, name);
  const row = view.updates.find((u) => pkgKey(u.source, u.name) === key);
  if (row) return { state: 'available', latest: row.latest, pinned: row.pinned };
  const family = key.slice(0, key.indexOf(':') + 1);
  const source = view.sources.find((s) => pkgKey(s.source, '') === family);
  return source?.checkedAt && !source.error ? { state: 'latest', checkedAt: source.checkedAt } : { state: 'unknown' };
}

export type GithubOverview = z.output<typeof githubOverviewOut>;
export type GithubPackage = GithubOverview['packages'][number];
export type GithubTarget = GithubOverview['target'];
export type GithubRateLimit = GithubOverview['rateLimits'][number];
export type GithubReleases = z.output<typeof githubReleasesOut>;
export type GithubRelease = GithubReleases['releases'][number];
export type GithubOverrides = z.infer<typeof githubOverridesInput>;

/** Whether a kept version is newer than the active one (by its semantic version; unknown forms count as older). */
export function isNewerVersion(version: string, than: string): boolean {
  const a = coerce(version, { includePrerelease: true });
  const b = coerce(than, { includePrerelease: true });
  return !!a && !!b && gt(a, b);
}

/** The row's version switch: "Activate" when every kept version is newer than the active one, else "Roll back". */
export function switchVerb(p: GithubPackage): 'Activate' | 'Roll back' {
  return p.retained.length > 0 && p.retained.every((r) => isNewerVersion(r.version, p.version)) ? 'Activate' : 'Roll back';
}
