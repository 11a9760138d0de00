// Bulk installs: one parent job over one `skill.install` child per sandbox config (several skills
// into one config are one child, so they share one maintenance container and one snapshot). The
// parent follows its children on the job bus and ends failed, with a summary, if any child failed.
import { and, eq, inArray } from 'drizzle-orm';
import type { AppDb, Database } from '@/db/client';
import { sandboxSkillInstalls } from '@/db/schema';
import { type Actor, systemActor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import { waitForChildren } from '../../jobs/children';
import type { JobEventHub } from '../../jobs/hub';
import { type JobHandler, jobSpec } from '../../jobs/kind';
import { cancelJob, enqueue, enqueueTree, isFinal } from '../../jobs/queue';
import type { JobRow } from '../../jobs/types';
import { type BulkChildRow, type BulkInstallResult, MAX_INSTALLS_PER_JOB, type SkillInstallBulkParams, skillInstallBulkJob, skillInstallJob } from './kinds';

export type { BulkChildRow, BulkInstallResult } from './kinds';

import * as store from '../records/store';
import type { InstallRunResult } from './run-install';

export interface InstallGroup {
  configId: string;
  installIds: string[];
}

function invalid(path: string, message: string): AppError {
  return new AppError('validation', message, { issues: [{ path, message }] });
}

/** One group per config (repeats merged), every record of the config it is listed under. */
async function checkGroups(database: Database, groups: InstallGroup[]): Promise<InstallGroup[]> {
  if (!groups.length) throw invalid('groups', 'Name at least one sandbox config and the installs to run in it.');
  const merged = new Map<string, Set<string>>();
  for (const g of groups) merged.set(g.configId, new Set([...(merged.get(g.configId) ?? []), ...g.installIds]));
  const out: InstallGroup[] = [];
  for (const [configId, ids] of merged) {
    if (!ids.size) throw invalid('groups.installIds', `No installs are listed for sandbox config ${configId}.`);
    if (ids.size > MAX_INSTALLS_PER_JOB) throw invalid('groups.installIds', `At most ${MAX_INSTALLS_PER_JOB} installs go into one sandbox config at once.`);
    for (const id of ids) {
      const r = await store.getInstall(database.db, id);
      if (!r) throw invalid('groups.installIds', `Install ${id} does not exist.`);
      if (r.configId !== configId) throw invalid('groups.installIds', `Install ${id} is of another sandbox config, not ${configId}.`);
    }
    out.push({ configId, installIds: [...ids] });
  }
  return out;
}

/** Points running installs at the job that runs them, so a stop can cancel that job. */
async function attachJob(db: AppDb, ids: string[], jobId: string): Promise<void> {
  const t = sandboxSkillInstalls;
  await db
    .update(t)
    .set({ jobId })
    .where(and(inArray(t.id, ids), eq(t.state, 'installing')));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Queues one install job (the records were begun already) and points the records at it. */
export async function enqueueInstall(database: Database, actor: Actor, group: InstallGroup, opts: { skillName?: string } = {}): Promise<JobRow> {
  const [g] = await checkGroups(database, [group]);
  const job = await enqueue(database, actor, skillInstallJob, { installIds: g.installIds, skillName: opts.skillName }, { trusted: true });
  await attachJob(database.db, g.installIds, job.id);
  return job;
}

/** Queues the bulk parent and one install child per config, and points each record at its child. */
export async function enqueueBulkInstall(
  database: Database,
  actor: Actor,
  groups: InstallGroup[],
  opts: { title?: string } = {},
): Promise<{ parent: JobRow; children: JobRow[] }> {
  const checked = await checkGroups(database, groups);
  const count = checked.reduce((n, g) => n + g.installIds.length, 0);
  const title = opts.title ?? `Install ${plural(count, 'skill', 'skills')} into ${plural(checked.length, 'sandbox config', 'sandbox configs')}`;
  const tree = await enqueueTree(
    database,
    actor,
    jobSpec(skillInstallBulkJob, { title, count }),
    checked.map((g) => jobSpec(skillInstallJob, { installIds: g.installIds })),
    { trusted: true },
  );
  for (const [i, g] of checked.entries()) await attachJob(database.db, g.installIds, tree.children[i].id);
  return tree;
}

function childRow(c: JobRow): BulkChildRow {
  const r = (c.result ?? null) as Partial<InstallRunResult> | null;
  return { jobId: c.id, configId: r?.configId ?? null, installIds: (c.params as { installIds?: string[] }).installIds ?? [], state: c.state, error: c.error };
}

export function bulkInstallHandler(hub: JobEventHub): JobHandler<SkillInstallBulkParams, BulkInstallResult> {
  return async (ctx) => {
    ctx.log(`${ctx.params.title}: ${plural(ctx.params.count, 'install', 'installs')}`);
    const reported = new Set<string>();
    const children = await waitForChildren(ctx.database, hub, ctx.job.id, {
      signal: ctx.signal,
      onChange: (rows) => {
        for (const c of rows) {
          if (!isFinal(c.state) || reported.has(c.id)) continue;
          reported.add(c.id);
          const what = `${c.title} (${plural(childRow(c).installIds.length, 'skill', 'skills')})`;
          if (c.state === 'succeeded') ctx.log(`✓ ${what}`);
          else ctx.log(`✗ ${what}: ${c.state} — ${c.error ?? 'no reason recorded'}`, 'stderr');
        }
        const ended = rows.filter((r) => isFinal(r.state)).length;
        ctx.progress(Math.round((ended / Math.max(rows.length, 1)) * 100), `${ended} of ${rows.length} done`);
      },
    });
    const rows = children.map(childRow);
    const open = rows.filter((r) => !isFinal(r.state));
    if (open.length) {
      const actor = { ...systemActor, label: `${ctx.job.createdByLabel} (bulk install canceled)` };
      for (const r of open) await cancelJob(ctx.database, actor, r.jobId).catch(() => undefined);
      throw new AppError('invalid_state', 'The bulk install was canceled; the installs still running were asked to stop.');
    }
    const failed = rows.filter((r) => r.state !== 'succeeded');
    const result: BulkInstallResult = { children: rows, succeeded: rows.length - failed.length, failed: failed.length };
    ctx.progress(100, `${result.succeeded} done, ${result.failed} failed`);
    if (failed.length)
      throw new AppError('conflict', `${failed.length} of ${rows.length} install job(s) failed: ${failed.map((f) => f.error ?? f.state).join('; ')}`, {
        details: { jobResult: result },
      });
    return result;
  };
}
