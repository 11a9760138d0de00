/** The packages API's shapes, taken from the contracts' schemas (type-only), and the runtime page's view helpers. */
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
/** The GitHub tab lists GitHub-release binaries (its own API), after the manager tabs. */
export type TabId = ManagerTabId | 'github';
export const TAB_IDS: readonly TabId[] = [...TABS.map((t) => t.id), 'github'];

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

export type GithubOverview = z.output<typeof githubOverviewOut>;
export type GithubPackage = GithubOverview['packages'][number];
export type GithubTarget = GithubOverview['target'];
export type GithubRateLimit = GithubOverview['rateLimits'][number];
export type GithubReleases = z.output<typeof githubReleasesOut>;
export type GithubRelease = GithubReleases['releases'][number];
export type GithubOverrides = z.infer<typeof githubOverridesInput>;
