// Skill installs into sandbox configs as the API offers them: each write starts the record's change
// in the store (which validates and audits it) and then queues the job that does the work. A
// refusal happens before anything is written; a job that cannot be queued fails the record again.
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { sandboxSkillInstalls } from '@/db/schema';
import type { Actor } from '../auth/actor';
import { AppError, type ErrorCode, isAppError } from '../core/errors';
import { cancelJob, enqueue } from '../jobs/queue';
import type { JobRow } from '../jobs/types';
import { loadRow } from '../sandbox/config/store';
import type { ConfigRow } from '../sandbox/config/view';
import { rolloutOf } from '../sandbox/instances/rollout';
import type { InstanceDeps } from '../sandbox/instances/service';
import { catalogVersions, type OtherSkillLookup, requireCatalogSkill } from './catalog/catalog-skill';
import { assertInstallScanAllows } from './catalog/scan-check';
import { bundleDiskUse, engineDiskUse } from './generations/disk-engine';
import { dockerConnOf, imageHealth } from './generations/image-health';
import { enqueueBulkInstall, enqueueInstall } from './jobs/bulk-install';
import { imageRebuildJob, skillRemoveJob } from './jobs/kinds';
import * as store from './records/store';
import type { ConfigImageOut, InstallOut } from './schema';
import { imageView, installView, installViews } from './view';

export interface InstallServiceDeps {
  database: Database;
  dataDir: string;
  sandboxes: InstanceDeps;
  /** Names a skill the catalog lists outside the managed store, so its refusal can say so. */
  otherSkill?: OtherSkillLookup;
}

export interface Started {
  install: InstallOut;
  jobId: string | null;
  noop: boolean;
}

export interface Refusal {
  target: string;
  code: ErrorCode;
  message: string;
}

export interface BulkStarted {
  jobId: string | null;
  installs: InstallOut[];
  errors: Refusal[];
}

/** The catalog's current version of `key`, refused while the scanner blocks it. */
async function installable(deps: InstallServiceDeps, key: string) {
  const skill = await requireCatalogSkill(deps.dataDir, key, deps.otherSkill);
  await assertInstallScanAllows(deps.database.db, deps.dataDir, skill);
  return skill;
}

/** A config skills can be installed into: Docker ones get snapshot images, E2B and Cube ones a bundle. */
async function installTarget(deps: InstallServiceDeps, configId: string): Promise<ConfigRow> {
  return loadRow(deps.database.db, configId);
}

/** The record of `skillKey` in the config; 404 naming which of the two is missing. */
async function recordOf(deps: InstallServiceDeps, configId: string, skillKey: string): Promise<store.InstallRecord> {
  const [row] = await store.listInstalls(deps.database.db, { configId, skillKey });
  if (row) return row;
  await loadRow(deps.database.db, configId);
  throw new AppError('not_found', `"${skillKey}" is not installed in this sandbox config.`, { details: { configId, skillKey } });
}

async function viewOf(deps: InstallServiceDeps, r: store.InstallRecord): Promise<InstallOut> {
  const fresh = (await store.getInstall(deps.database.db, r.id)) ?? r;
  const [view] = await installViews(deps.database.db, [fresh], catalogVersions(deps.dataDir));
  return view;
}

async function started(deps: InstallServiceDeps, r: store.InstallRecord, jobId: string | null, noop = false): Promise<Started> {
  return { install: await viewOf(deps, r), jobId, noop };
}

/** Cancels a job that may have ended meanwhile. */
async function cancelIfRunning(deps: InstallServiceDeps, actor: Actor, jobId: string): Promise<void> {
  try {
    await cancelJob(deps.database, actor, jobId);
  } catch (e) {
    if (!isAppError(e) || (e.code !== 'invalid_state' && e.code !== 'not_found')) throw e;
  }
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Ends begun records as failed when their job could not be queued, so none waits for a job that never comes. */
async function orFail<T>(deps: InstallServiceDeps, actor: Actor, records: store.InstallRecord[], queue: () => Promise<T>): Promise<T> {
  try {
    return await queue();
  } catch (e) {
    for (const r of records)
      await store
        .fail(deps.database.db, actor, r.id, { code: 'enqueue_failed', message: `The job could not be queued: ${messageOf(e)}` })
        .catch(() => undefined);
    throw e;
  }
}

const queueInstall = (deps: InstallServiceDeps, actor: Actor, configId: string, records: store.InstallRecord[], skillName?: string): Promise<JobRow> =>
  orFail(deps, actor, records, () => enqueueInstall(deps.database, actor, { configId, installIds: records.map((r) => r.id) }, { skillName }));

function refusalOf(target: string, e: unknown): Refusal {
  if (!isAppError(e)) throw e;
  return { target, code: e.code, message: e.message };
}

function allRefused(what: string, errors: Refusal[]): AppError {
  const codes = new Set(errors.map((e) => e.code));
  const code: ErrorCode = codes.size === 1 ? [...codes][0] : 'conflict';
  const list = errors.map((e) => `${e.target}: ${e.message}`).join(' ');
  return new AppError(code, `None of the ${what} could be installed. ${list}`, { details: { errors } });
}

export async function listConfigInstalls(deps: InstallServiceDeps, configId: string): Promise<InstallOut[]> {
  await loadRow(deps.database.db, configId);
  return installViews(deps.database.db, await store.listInstalls(deps.database.db, { configId }), catalogVersions(deps.dataDir));
}

export async function listSkillInstalls(deps: InstallServiceDeps, skillKey: string): Promise<InstallOut[]> {
  return installViews(deps.database.db, await store.listInstalls(deps.database.db, { skillKey }), catalogVersions(deps.dataDir));
}

export async function getConfigInstall(deps: InstallServiceDeps, configId: string, skillKey: string): Promise<InstallOut> {
  return viewOf(deps, await recordOf(deps, configId, skillKey));
}

/** Installs the catalog's current version; the same content already ready is a no-op without a job. */
export async function installSkill(
  deps: InstallServiceDeps,
  actor: Actor,
  configId: string,
  input: { skillKey: string; notes?: string | null },
): Promise<Started> {
  await installTarget(deps, configId);
  const skill = await installable(deps, input.skillKey);
  const begun = await store.beginInstall(deps.database.db, actor, { configId, skill, notes: input.notes });
  if (begun.noop) return started(deps, begun.install, null, true);
  if (begun.cancelJobId) await cancelIfRunning(deps, actor, begun.cancelJobId);
  const job = await queueInstall(deps, actor, configId, [begun.install], skill.name);
  return started(deps, begun.install, job.id);
}

/** Several skills into one config: one job (one maintenance sandbox, one snapshot); refusals are listed. */
export async function installSkills(
  deps: InstallServiceDeps,
  actor: Actor,
  configId: string,
  input: { skillKeys: string[]; notes?: string | null },
): Promise<BulkStarted> {
  await installTarget(deps, configId);
  const errors: Refusal[] = [];
  const begun: store.InstallRecord[] = [];
  const noops: store.InstallRecord[] = [];
  for (const key of new Set(input.skillKeys)) {
    try {
      const skill = await installable(deps, key);
      const r = await store.beginInstall(deps.database.db, actor, { configId, skill, notes: input.notes });
      (r.noop ? noops : begun).push(r.install);
      if (r.cancelJobId) await cancelIfRunning(deps, actor, r.cancelJobId);
    } catch (e) {
      errors.push(refusalOf(key, e));
    }
  }
  if (!begun.length && !noops.length) throw allRefused(`${errors.length} skill(s)`, errors);
  const job = begun.length ? await queueInstall(deps, actor, configId, begun) : null;
  return { jobId: job?.id ?? null, installs: await Promise.all([...begun, ...noops].map((r) => viewOf(deps, r))), errors };
}

/** One skill into several configs: a parent job with one install job per config; refusals are listed. */
export async function installIntoConfigs(
  deps: InstallServiceDeps,
  actor: Actor,
  skillKey: string,
  input: { configIds: string[]; notes?: string | null },
): Promise<BulkStarted> {
  const skill = await installable(deps, skillKey);
  const errors: Refusal[] = [];
  const begun: store.InstallRecord[] = [];
  const noops: store.InstallRecord[] = [];
  for (const configId of new Set(input.configIds)) {
    try {
      await installTarget(deps, configId);
      const r = await store.beginInstall(deps.database.db, actor, { configId, skill, notes: input.notes });
      (r.noop ? noops : begun).push(r.install);
      if (r.cancelJobId) await cancelIfRunning(deps, actor, r.cancelJobId);
    } catch (e) {
      errors.push(refusalOf(configId, e));
    }
  }
  if (!begun.length && !noops.length) throw allRefused(`${errors.length} sandbox config(s)`, errors);
  let jobId: string | null = null;
  if (begun.length) {
    const groups = begun.map((r) => ({ configId: r.configId, installIds: [r.id] }));
    const title = `Install ${skill.name} into ${begun.length === 1 ? 'a sandbox config' : `${begun.length} sandbox configs`}`;
    jobId = (await orFail(deps, actor, begun, () => enqueueBulkInstall(deps.database, actor, groups, { title }))).parent.id;
  }
  return { jobId, installs: await Promise.all([...begun, ...noops].map((r) => viewOf(deps, r))), errors };
}

/** Installs the record's own version again, with the operator's notes. */
export async function retryInstall(deps: InstallServiceDeps, actor: Actor, configId: string, skillKey: string, notes?: string | null): Promise<Started> {
  const r = await recordOf(deps, configId, skillKey);
  await assertInstallScanAllows(deps.database.db, deps.dataDir, { key: r.skillKey, name: r.skillName, version: r.version, contentHash: r.contentHash });
  const retried = await store.retry(deps.database.db, actor, r.id, { notes });
  const job = await queueInstall(deps, actor, configId, [retried], retried.skillName);
  return started(deps, retried, job.id);
}

/** Installs the catalog's current version over the record; 409 when the record already has it. */
export async function updateInstall(deps: InstallServiceDeps, actor: Actor, configId: string, skillKey: string, notes?: string | null): Promise<Started> {
  const r = await recordOf(deps, configId, skillKey);
  const skill = await requireCatalogSkill(deps.dataDir, skillKey, deps.otherSkill);
  if (skill.contentHash === r.contentHash)
    throw new AppError('no_update_known', `"${skillKey}" is already at the catalog's current version (${skill.version}); there is nothing newer to install.`, {
      hint: r.state === 'failed' ? 'Retry the install instead, with notes if needed.' : 'Import a new version into the catalog first.',
    });
  await assertInstallScanAllows(deps.database.db, deps.dataDir, skill);
  const begun = await store.beginUpdate(deps.database.db, actor, r.id, { skill, notes });
  if (begun.noop) return started(deps, begun.install, null, true);
  const job = await queueInstall(deps, actor, configId, [begun.install], skill.name);
  return started(deps, begun.install, job.id);
}

/**
 * Stops a running install. Its job is canceled (the running step is killed in the maintenance
 * sandbox) unless it still installs other skills, which then go on without this one.
 */
export async function stopInstall(deps: InstallServiceDeps, actor: Actor, configId: string, skillKey: string): Promise<InstallOut> {
  const r = await recordOf(deps, configId, skillKey);
  const { install, cancelJobId } = await store.stop(deps.database.db, actor, r.id);
  if (cancelJobId) {
    const t = sandboxSkillInstalls;
    const others = await deps.database.db
      .select({ id: t.id })
      .from(t)
      .where(and(eq(t.jobId, cancelJobId), eq(t.state, 'installing')));
    if (!others.length) await cancelIfRunning(deps, actor, cancelJobId);
  }
  return viewOf(deps, install);
}

/** Hides an installed skill from agents (it stays in the image), or shows it again. */
export async function setInstallEnabled(deps: InstallServiceDeps, actor: Actor, configId: string, skillKey: string, enabled: boolean): Promise<InstallOut> {
  const r = await recordOf(deps, configId, skillKey);
  const after = enabled ? await store.enable(deps.database.db, actor, r.id) : await store.disable(deps.database.db, actor, r.id);
  return viewOf(deps, after);
}

/** Starts removing the skill from the config's image; the catalog copy stays. */
export async function removeInstall(deps: InstallServiceDeps, actor: Actor, configId: string, skillKey: string): Promise<Started> {
  const r = await recordOf(deps, configId, skillKey);
  const removing = await store.beginRemove(deps.database.db, actor, r.id);
  const job = await orFail(deps, actor, [removing], () =>
    enqueue(deps.database, actor, skillRemoveJob, { installId: r.id, skillName: r.skillName }, { trusted: true }),
  );
  const t = sandboxSkillInstalls;
  await deps.database.db
    .update(t)
    .set({ jobId: job.id })
    .where(and(eq(t.id, r.id), eq(t.state, 'removing')));
  return { install: installView({ ...removing, jobId: job.id }, (await loadRow(deps.database.db, configId)).name, null), jobId: job.id, noop: false };
}

/** The config's snapshot images and whether the active one is still on its engine. */
export async function configImage(deps: InstallServiceDeps, configId: string): Promise<ConfigImageOut> {
  const row = await loadRow(deps.database.db, configId);
  const health = await imageHealth(deps.sandboxes, configId);
  const images = await store.listImages(deps.database.db, configId);
  const activeRow = images.find((i) => i.state === 'active');
  const conn = dockerConnOf(deps.sandboxes, row);
  const baseImage = typeof row.config.image === 'string' ? row.config.image : null;
  const live = health.active ? { imageId: health.active.imageId, sizeBytes: health.active.sizeBytes, layers: health.active.layers } : {};
  return {
    configId,
    baseImage,
    rollout: rolloutOf(row.config),
    health: { state: health.state, message: health.message, layerLimit: health.layerLimit },
    active: activeRow ? { ...imageView(activeRow), ...live } : null,
    generations: images.map(imageView),
    disk: conn ? await engineDiskUse(conn, baseImage, images) : bundleDiskUse(images),
  };
}

/** Queues a rebuild of the config's image from its base with every installed skill. */
export async function rebuildImage(deps: InstallServiceDeps, actor: Actor, configId: string, reason?: string): Promise<JobRow> {
  const row = await installTarget(deps, configId);
  if (row.backend !== 'docker')
    throw new AppError('invalid_state', `A ${row.backend} config has no image to rebuild: its installed skills go into each new sandbox when it starts.`);
  return enqueue(deps.database, actor, imageRebuildJob, { configId, ...(reason ? { reason } : {}) }, { trusted: true });
}
