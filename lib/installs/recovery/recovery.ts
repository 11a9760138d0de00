// What a crash leaves of skill installs, made consistent: records still installing or removing
// whose job is no longer queued or running end failed (`interrupted`, naming the stage; a removal
// goes back to where it began), planned images that never became active are removed from the
// engine and marked deleted, and leftover maintenance containers and planned images are reclaimed
// by label. The active image of a config is never touched. Runs at boot, after the worker's reaper,
// and again whenever an image-building job ends failed or canceled (a crashed run's job is only
// ended by the reaper once its lease runs out, which may be after boot).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { jobs, sandboxConfigs, sandboxImages, sandboxSkillInstalls } from '@/db/schema';
import { type Actor, systemActor } from '../../auth/actor';
import { logger } from '../../core/logger';
import type { JobEventHub } from '../../jobs/hub';
import type { SandboxActivity } from '../../sandbox/docker/activity';
import type { DockerBackend } from '../../sandbox/docker/backend';
import { type DockerConnection, statusOf } from '../../sandbox/docker/connection';
import { markImageDeleted } from '../../sandbox/images/images';
import { backendFor, type InstanceDeps } from '../../sandbox/instances/service';
import { reclaimLeftovers } from '../docker/build';
import { maintenanceRunId } from '../generations/build';
import { imageRebuildJob, skillInstallJob, skillRemoveJob } from '../jobs/kinds';
import * as store from '../records/store';
import { recoverBundleConfig } from './bundle';

/** The job kinds that run a maintenance container and plan images. */
export const IMAGE_BUILD_KINDS: readonly string[] = [skillInstallJob.name, skillRemoveJob.name, imageRebuildJob.name];
const LIVE_STATES = ['queued', 'running'] as const;
/**
 * A record begun this recently with no job attached is being started: its job is queued just after
 * the record is written (a retry, an update), so a pass between the two must not end it. It is
 * judged by a pass after the grace.
 */
export const START_GRACE_MS = 30_000;

export const recoveryActor: Actor = { ...systemActor, label: 'install recovery' };

export interface InstallRecoveryReport {
  /** Records ended failed: id, the state they were in, and the stage. */
  failed: { id: string; from: 'installing' | 'removing'; stage: string | null }[];
  /** Image rows that were building with no live job: marked deleted (engine image removed if present). */
  images: { id: string; configId: string; plannedRef: string; engineImageRemoved: boolean }[];
  /** Per engine: maintenance containers and planned images reclaimed by label. */
  reclaimed: { endpoint: string; containers: string[]; images: string[] }[];
  /** What could not be done (an engine that did not answer, say); the rest still ran. */
  problems: string[];
  /** Records begun within the grace and no job yet: left for a pass after it. */
  starting: string[];
}

interface LiveJobs {
  ids: Set<string>;
  runIds: string[];
  /** Records named by a live job's params (a record may be begun before its job id is attached). */
  installIds: Set<string>;
  /** Configs a live job builds an image of. */
  configIds: Set<string>;
}

async function liveJobs(db: AppDb): Promise<LiveJobs> {
  const rows = await db
    .select({ id: jobs.id, kind: jobs.kind, params: jobs.params })
    .from(jobs)
    .where(and(inArray(jobs.kind, [...IMAGE_BUILD_KINDS]), inArray(jobs.state, [...LIVE_STATES])));
  const live: LiveJobs = { ids: new Set(), runIds: [], installIds: new Set(), configIds: new Set() };
  for (const j of rows) {
    live.ids.add(j.id);
    live.runIds.push(maintenanceRunId(j.kind, j.id));
    const p = (j.params ?? {}) as { installIds?: unknown; installId?: unknown; configId?: unknown };
    if (Array.isArray(p.installIds)) for (const id of p.installIds) if (typeof id === 'string') live.installIds.add(id);
    if (typeof p.installId === 'string') live.installIds.add(p.installId);
    if (typeof p.configId === 'string') live.configIds.add(p.configId);
  }
  return live;
}

function interruptedMessage(r: store.InstallRecord, jobState: string | null): string {
  const what = r.state === 'removing' ? 'removal' : 'install';
  const where = r.stage ? `during ${r.stage}` : 'before it started';
  const job = r.jobId ? (jobState ? `its job ended ${jobState}` : 'its job no longer exists') : 'no job was running it';
  const next = r.state === 'removing' ? 'remove it again' : 'retry it';
  return `The ${what} was interrupted ${where} (${job}, most likely a restart of Skilldock); ${next}.`;
}

/** Fails the records whose job is gone; returns them, and the configs still built by a live job. */
async function recoverRecords(db: AppDb, live: LiveJobs, report: InstallRecoveryReport): Promise<Set<string>> {
  const t = sandboxSkillInstalls;
  const rows = await db
    // Judged by the database's clock, the one that stamped the record.
    .select({ record: t, jobState: jobs.state, fresh: sql<boolean>`${t.updatedAt} > now() - make_interval(secs => ${START_GRACE_MS / 1000})` })
    .from(t)
    .leftJoin(jobs, eq(jobs.id, t.jobId))
    .where(inArray(t.state, ['installing', 'removing']));
  const busy = new Set(live.configIds);
  for (const { record: r, jobState, fresh } of rows) {
    const alive = (r.jobId !== null && live.ids.has(r.jobId)) || live.installIds.has(r.id);
    if (alive) {
      busy.add(r.configId);
      continue;
    }
    if (r.jobId === null && fresh) {
      busy.add(r.configId);
      report.starting.push(r.id);
      continue;
    }
    try {
      await store.fail(db, recoveryActor, r.id, { code: 'interrupted', message: interruptedMessage(r, jobState), stage: r.stage });
      report.failed.push({ id: r.id, from: r.state as 'installing' | 'removing', stage: r.stage });
    } catch (e) {
      // Moved on meanwhile (a job of another replica finished it): nothing to recover.
      report.problems.push(`install ${r.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return busy;
}

async function removeImageIfPresent(conn: DockerConnection, ref: string): Promise<boolean> {
  try {
    await conn.api.getImage(ref).remove();
    return true;
  } catch (e) {
    if (statusOf(e) === 404) return false;
    throw e;
  }
}

export type InstallRecoveryDeps = InstanceDeps;

/** One pass of the recovery. Never throws for an engine or a record; those are in `problems`. */
export async function recoverInstalls(deps: InstallRecoveryDeps): Promise<InstallRecoveryReport> {
  const db = deps.db;
  const report: InstallRecoveryReport = { failed: [], images: [], reclaimed: [], problems: [], starting: [] };
  const live = await liveJobs(db);
  const busy = await recoverRecords(db, live, report);

  const all = await db.select().from(sandboxConfigs);
  const configs = all.filter((c) => c.backend === 'docker');
  const images = await db.select().from(sandboxImages);
  for (const row of all.filter((c) => c.backend !== 'docker')) {
    try {
      const mine = images.filter((i) => i.configId === row.id);
      const r = await recoverBundleConfig(db, row, backendFor(deps, row), { images: mine, busy: busy.has(row.id), liveRunIds: live.runIds });
      report.images.push(...r.images.map((i) => ({ ...i, engineImageRemoved: false })));
      if (r.sandboxes.length) report.reclaimed.push({ endpoint: row.name, containers: r.sandboxes, images: [] });
      report.problems.push(...r.problems);
    } catch (e) {
      report.problems.push(`config ${row.id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (!configs.length) return report;
  const engines = new Map<string, { conn: DockerConnection; activity: SandboxActivity; planned: string[]; keep: string[]; configIds: string[] }>();
  for (const row of configs) {
    let backend: DockerBackend;
    try {
      backend = backendFor(deps, row) as DockerBackend;
    } catch (e) {
      report.problems.push(`config ${row.id}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    const conn = backend.conn;
    const mine = images.filter((i) => i.configId === row.id);
    for (const img of mine) {
      if (img.state !== 'building' || busy.has(row.id)) continue;
      try {
        const engineImageRemoved = await removeImageIfPresent(conn, img.plannedRef);
        await markImageDeleted(db, img.id);
        report.images.push({ id: img.id, configId: row.id, plannedRef: img.plannedRef, engineImageRemoved });
      } catch (e) {
        report.problems.push(`image ${img.plannedRef}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const e = engines.get(conn.endpoint) ?? { conn, activity: backend.activity, planned: [], keep: [], configIds: [] };
    e.configIds.push(row.id);
    for (const img of mine) {
      // A live build's planned image is still being made; a served or collectable one stays for the collector.
      if (img.state === 'active' || img.state === 'superseded' || (img.state === 'building' && busy.has(row.id))) e.keep.push(img.plannedRef);
      else e.planned.push(img.plannedRef);
    }
    engines.set(conn.endpoint, e);
  }
  for (const [endpoint, e] of engines) {
    try {
      const r = await reclaimLeftovers(e.conn, {
        plannedRefs: e.planned,
        keepRefs: e.keep,
        liveRunIds: live.runIds,
        configIds: e.configIds,
        activity: e.activity,
      });
      if (r.containers.length || r.images.length) report.reclaimed.push({ endpoint, containers: r.containers, images: r.images });
    } catch (err) {
      report.problems.push(`engine ${endpoint}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return report;
}

function logReport(r: InstallRecoveryReport): void {
  if (r.failed.length) logger.warn('skill installs interrupted by a restart ended failed', { installs: r.failed });
  if (r.images.length) logger.warn('half-made snapshot images reclaimed', { images: r.images.map((i) => i.plannedRef) });
  for (const x of r.reclaimed) logger.warn('install leftovers reclaimed', x);
  if (r.problems.length) logger.error('skill install recovery could not finish everything', { problems: r.problems });
}

export interface InstallRecovery {
  /** The boot pass (awaited by the caller). */
  ready: Promise<InstallRecoveryReport>;
  /** The pass running now, if any; resolves when the recovery is idle. */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * Runs a pass now and again whenever an image-building job ends failed or canceled; passes never
 * overlap (one asked for while another runs follows it once).
 */
export function startInstallRecovery(deps: InstallRecoveryDeps, hub: JobEventHub): InstallRecovery {
  let running: Promise<InstallRecoveryReport> | null = null;
  let again = false;
  let stopped = false;
  let later: NodeJS.Timeout | undefined;
  const pass = (): Promise<InstallRecoveryReport> => {
    if (running) {
      again = true;
      return running;
    }
    running = recoverInstalls(deps)
      .then((r) => {
        logReport(r);
        // Records being started are judged once their grace has passed (one timer at a time).
        if (r.starting.length && !later && !stopped) {
          later = setTimeout(() => {
            later = undefined;
            if (!stopped) void pass();
          }, START_GRACE_MS + 1000);
          later.unref();
        }
        return r;
      })
      .catch((e): InstallRecoveryReport => {
        logger.error('skill install recovery failed', { error: String(e) });
        return { failed: [], images: [], reclaimed: [], problems: [String(e)], starting: [] };
      })
      .finally(() => {
        running = null;
        if (again && !stopped) {
          again = false;
          void pass();
        }
      });
    return running;
  };
  const off = hub.onJobState((job) => {
    if (stopped || !IMAGE_BUILD_KINDS.includes(job.kind)) return;
    if (job.state === 'failed' || job.state === 'canceled') void pass();
  });
  return {
    ready: pass(),
    async idle() {
      while (running) await running;
    },
    stop() {
      stopped = true;
      clearTimeout(later);
      off();
    },
  };
}
