/** Client-side shapes of the packages API: the server's own types (type-only imports, erased from the bundle). */
import type { BinaryStatus, ManagerReadiness, RuntimeReport as ServerRuntimeReport } from '@/lib/runtime/detect/detect';
import type { RuntimeEnvEntry } from '@/lib/runtime/env';
import type { InstalledPackage } from '@/lib/runtime/types';
import type { updateItemOut, updatesOut } from '@/lib/api/package-schemas';
import type { z } from 'zod';
import type { Job } from '../jobs/types';

export type { InstalledPackage };
export type ToolStatus = BinaryStatus;
export type Readiness = ManagerReadiness;
export type EnvEntry = RuntimeEnvEntry;

export interface PackageList {
  items: InstalledPackage[];
  errors: { manager: string; message: string }[];
}

/** GET /api/v1/packages/runtimes: the detection report plus the environment skill processes get. */
export type RuntimeReport = ServerRuntimeReport & { env: EnvEntry[] };

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

/** GET /api/v1/packages/updates and the other update routes (shapes from lib/api/package-schemas.ts). */
export type UpdateItem = z.infer<typeof updateItemOut>;
export type UpdatesView = z.infer<typeof updatesOut>;
export type UpdateSourceState = UpdatesView['sources'][number];
export type RefreshResponse = { job: Job; started: boolean };
export type ApplyAllResponse = { job: Job; children: Job[] };

/** One Update All row in the parent job's result. */
export interface UpdateAllRow {
  spec: string;
  jobId: string;
  state: string;
  fromVersion: string | null;
  toVersion: string | null;
  error: string | null;
}

/**
 * The key that ties a job, an installed package and an update row to the same package:
 * apt/apk/system share one key, pip names are compared the PEP 503 way.
 */
export function pkgKey(manager: string, name: string): string {
  const m = manager === 'apt' || manager === 'apk' ? 'system' : manager;
  return `${m}:${m === 'pip' ? name.toLowerCase().replace(/[-_.]+/g, '-') : name}`;
}

/** GET /api/v1/packages/github and /github-releases (shapes from lib/api/package-schemas.ts and lib/github/views.ts). */
export type GithubOverview = Awaited<ReturnType<typeof import('@/lib/github/views').githubOverview>>;
export type GithubPackage = GithubOverview['packages'][number];
export type GithubTarget = GithubOverview['target'];
export type GithubRateLimit = GithubOverview['rateLimits'][number];
export type GithubReleases = Awaited<ReturnType<typeof import('@/lib/github/views').browseReleases>>;
export type GithubRelease = GithubReleases['releases'][number];
export type GithubOverrides = z.infer<typeof import('@/lib/github/schemas').githubOverridesInput>;
