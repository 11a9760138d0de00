import { z } from 'zod';
import { githubInstallParams, githubRepairParams, githubRollbackParams, githubUninstallParams, githubUpdateParams } from '../github/schemas';
import { defineJobKind, type JobKind } from '../jobs/kind';
import { PACKAGE_JOB_NAMES as NAMES } from './job-names';
import { installPackageInput, type PackageAction, uninstallPackageInput, updatePackageInput } from './schemas';
import { UPDATE_SOURCES, type UpdateSource } from './updates-merge';

/**
 * The package domain's job kinds (pip, npm, system and GitHub-release installs, update checks,
 * Update All, missing-deps installs). Declared here, apart from their handlers (jobs.ts), so the
 * features that queue them import only these descriptors.
 */

/** The effect of every kind that changes what is installed; the skill catalog re-gates when one ends. */
export const PACKAGES_CHANGED = 'packages-changed';

const VERB: Record<PackageAction, string> = { install: 'Install', uninstall: 'Uninstall', update: 'Update' };
const packageTitle = (action: PackageAction) => (p: { spec: string; toVersion?: string }) =>
  `${VERB[action]} ${p.spec}${p.toVersion ? ` → ${p.toVersion}` : ''}`;
// Every kind here is started by a packages.write operation, so a retry needs packages.write too.
const RETRY = { retryPermission: 'packages.write' } as const;
// They change this host's runtimes: a replica on another host must not take them.
const installs = { concurrency: 2, maxAttempts: 1, resumable: false, hostBound: true, effects: [PACKAGES_CHANGED], ...RETRY } as const;

// Started only by the packages routes (after their packages.write check), never through POST /api/v1/jobs.
export const packageInstallJob = defineJobKind({ name: NAMES.install, params: installPackageInput, title: packageTitle('install'), ...installs });
export const packageUninstallJob = defineJobKind({ name: NAMES.uninstall, params: uninstallPackageInput, title: packageTitle('uninstall'), ...installs });
export const packageUpdateJob = defineJobKind({ name: NAMES.update, params: updatePackageInput, title: packageTitle('update'), ...installs });

export const githubInstallJob = defineJobKind({
  name: NAMES.githubInstall,
  params: githubInstallParams,
  title: (p) => `Install github:${p.repo}${p.tag ? `@${p.tag}` : ''}`,
  ...installs,
});
/** Updates to `toTag`, or to the newest release of the package's channel; no downgrade, no-op when current. */
export const githubUpdateJob = defineJobKind({
  name: NAMES.githubUpdate,
  params: githubUpdateParams,
  title: (p) => `Update github:${p.name}${p.toTag ? ` → ${p.toTag}` : ''}`,
  ...installs,
});
export const githubRollbackJob = defineJobKind({
  name: NAMES.githubRollback,
  params: githubRollbackParams,
  title: (p) => `Roll back github:${p.name} to ${p.version}`,
  ...installs,
});
export const githubUninstallJob = defineJobKind({
  name: NAMES.githubUninstall,
  params: githubUninstallParams,
  title: (p) => `Uninstall github:${p.name}`,
  ...installs,
});
/** Runs the crash recovery on demand ("Repair"); at boot it runs before the worker starts. */
export const githubRepairJob = defineJobKind({
  name: NAMES.githubRepair,
  params: githubRepairParams,
  title: () => 'Repair GitHub-release installs',
  ...installs,
});

/** The sources a check covers, as the host had them when it was queued; they only name the job. */
export const updateCheckParams = z.strictObject({ sources: z.array(z.enum(UPDATE_SOURCES)).max(UPDATE_SOURCES.length).optional() });
const SOURCE_LABEL: Record<UpdateSource, string> = { pip: 'pip', npm: 'npm', apt: 'apt', apk: 'apk', github: 'GitHub releases' };
/** "a", "a and b", "a, b and c". */
const listOf = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** Checks pip, npm, the system manager and GitHub releases for updates of managed packages. */
export const updateCheckJob = defineJobKind({
  name: NAMES.updateCheck,
  params: updateCheckParams,
  title: (p) => (p.sources?.length ? `Check ${listOf(p.sources.map((s) => SOURCE_LABEL[s]))} for updates` : 'Check for package updates'),
  concurrency: 1,
  maxAttempts: 1,
  resumable: true,
  // It reads this host's installed versions.
  hostBound: true,
  ...RETRY,
});

export const batchParams = z.strictObject({
  items: z
    .array(z.strictObject({ spec: z.string().max(256), from: z.string().max(128), to: z.string().max(256) }))
    .min(1)
    .max(500),
});
export type BatchParams = z.infer<typeof batchParams>;

/** One child's outcome as a batch parent reports it. */
export interface BatchRow {
  spec: string;
  jobId: string;
  state: string;
  fromVersion: string | null;
  toVersion: string | null;
  error: string | null;
}
export interface BatchResult {
  items: BatchRow[];
  succeeded: number;
  failed: number;
}

/** Up to three specs by name, then how many more: "npm:a, pip:b and 3 more". */
function batchSubject(specs: string[]): string {
  if (specs.length <= 3) return listOf(specs);
  return `${specs.slice(0, 2).join(', ')} and ${specs.length - 2} more`;
}

const batch = (name: string, noun: string): JobKind<BatchParams, BatchResult> =>
  defineJobKind({
    name,
    params: batchParams,
    title: (p) => `${noun}: ${batchSubject(p.items.map((i) => i.spec))}`,
    concurrency: 2,
    maxAttempts: 1,
    // Only waits on its children (which hold their own state), so it can pick up where it left off after a crash.
    resumable: true,
    ...RETRY,
  });

/** Update All: one parent, one update child per package; failures never stop the others. */
export const updateAllJob = batch(NAMES.updateAll, 'Update all');
/** Installs a skill's missing dependencies: one parent, one install child per package. */
export const installDepsJob = batch(NAMES.installDeps, 'Install missing dependencies');
