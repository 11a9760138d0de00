// The job kinds that build a config's skill image, as data: importable by the routes that queue
// them and by the bulk parent without pulling in the handlers.
import { z } from 'zod';
import { defineJobKind, type JobKind } from '../../jobs/kind';
import type { JobRow } from '../../jobs/types';
import type { InstallRunResult } from './run-install';
import type { RebuildResult } from './run-rebuild';
import type { RemoveRunResult } from './run-remove';

const ID = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
/** One install job takes at most this many records (all of one config). */
export const MAX_INSTALLS_PER_JOB = 50;

export const skillInstallParams = z.strictObject({
  installIds: z.array(ID).min(1).max(MAX_INSTALLS_PER_JOB),
  /** For the job's title only. */
  skillName: z.string().max(200).optional(),
});
export type SkillInstallParams = z.output<typeof skillInstallParams>;

const installTitle = (p: SkillInstallParams) =>
  p.skillName
    ? `Install ${p.skillName} into a sandbox config`
    : `Install ${p.installIds.length === 1 ? 'a skill' : `${p.installIds.length} skills`} into a sandbox config`;

export const skillInstallJob: JobKind<SkillInstallParams, InstallRunResult> = defineJobKind({
  name: 'skill.install',
  title: installTitle,
  params: skillInstallParams,
  concurrency: 2,
  maxAttempts: 1,
  // A crashed run ends failed (the record says why); its container and planned image are reclaimed by label.
  resumable: false,
  retryPermission: 'sandboxes.write',
});

export const skillRemoveParams = z.strictObject({ installId: ID, skillName: z.string().max(200).optional() });
export type SkillRemoveParams = z.output<typeof skillRemoveParams>;

export const skillRemoveJob: JobKind<SkillRemoveParams, RemoveRunResult> = defineJobKind({
  name: 'skill.remove',
  title: (p) => `Remove ${p.skillName ?? 'a skill'} from a sandbox config`,
  params: skillRemoveParams,
  concurrency: 2,
  maxAttempts: 1,
  resumable: false,
  retryPermission: 'sandboxes.write',
});

export const imageRebuildParams = z.strictObject({ configId: ID, reason: z.string().max(500).optional() });
export type ImageRebuildParams = z.output<typeof imageRebuildParams>;

export const imageRebuildJob: JobKind<ImageRebuildParams, RebuildResult> = defineJobKind({
  name: 'sandbox.image.rebuild',
  title: () => `Rebuild a sandbox config's image from its base`,
  params: imageRebuildParams,
  concurrency: 2,
  maxAttempts: 1,
  resumable: false,
  retryPermission: 'sandboxes.write',
});

export const skillInstallBulkParams = z.strictObject({
  title: z.string().min(1).max(200),
  count: z.number().int().min(1).max(1000),
});
export type SkillInstallBulkParams = z.output<typeof skillInstallBulkParams>;

export const skillInstallBulkJob: JobKind<SkillInstallBulkParams, BulkInstallResult> = defineJobKind({
  name: 'skill.install.bulk',
  title: (p) => p.title,
  params: skillInstallBulkParams,
  concurrency: 2,
  maxAttempts: 1,
  // Only waits on its children (which hold their own state), so it can pick up where it left off after a crash.
  resumable: true,
});

/** One child of a bulk install, as its parent's result reports it. */
export interface BulkChildRow {
  jobId: string;
  configId: string | null;
  installIds: string[];
  state: JobRow['state'];
  error: string | null;
}

export interface BulkInstallResult {
  children: BulkChildRow[];
  succeeded: number;
  failed: number;
}
