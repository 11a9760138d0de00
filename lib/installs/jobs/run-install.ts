// Skill installs into one Docker config, as one job: every listed record still installing goes
// into one maintenance container (generations/build.ts) and one snapshot, under the config's image
// lock. A record whose skill fails fails alone; the others still become ready in the new generation.
import type { AppDb } from '@/db/client';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import type { JobContext } from '../../jobs/types';
import { loadRow } from '../../sandbox/config/store';
import { type BuildDeps, BuildError, type BuildInstall, buildGeneration, chooseSource } from '../generations/build';
import * as store from '../records/store';
import type { SkillFailure } from '../steps/skill-steps';
import { withConfigImageLock } from './config-lock';

export type InstallRunDeps = BuildDeps;

export interface InstallOutcome {
  installId: string;
  skillKey: string | null;
  outcome: 'ready' | 'failed' | 'skipped';
  error?: SkillFailure;
}

export interface InstallRunResult {
  configId: string | null;
  /** Nothing was built: no listed record was still installing. */
  noop: boolean;
  imageGeneration: number | null;
  imageRef: string | null;
  installs: InstallOutcome[];
}

export interface InstallRunParams {
  installIds: string[];
}

async function loadRecords(db: AppDb, ids: string[]): Promise<Map<string, store.InstallRecord | null>> {
  const out = new Map<string, store.InstallRecord | null>();
  for (const id of ids) out.set(id, await store.getInstall(db, id));
  return out;
}

/** An install this job may take: installing, and not handed to another job (a record is begun before its job id is attached). */
const isMine = (r: store.InstallRecord | null, jobId: string): boolean => !!r && r.state === 'installing' && (r.jobId === null || r.jobId === jobId);
/**
 * An install this job runs, once it has claimed its records. Strict: a stopped record that a retry
 * begins again has no job id for a moment, and must not be taken back by the job it was stopped in.
 */
const isBound = (r: store.InstallRecord | null, jobId: string): boolean => !!r && r.state === 'installing' && r.jobId === jobId;

export async function runInstall(deps: InstallRunDeps, ctx: JobContext<InstallRunParams>, actor: Actor): Promise<InstallRunResult> {
  const db: AppDb = deps.db;
  const ids = [...new Set(ctx.params.installIds)];
  const first = await loadRecords(db, ids);
  const configs = new Set([...first.values()].filter((r) => r !== null).map((r) => r.configId));
  if (configs.size > 1) throw new AppError('validation', 'One install job installs into one sandbox config; these installs are of several.');
  const configId = [...configs][0] ?? null;
  const outcomes = new Map<string, InstallOutcome>(ids.map((id) => [id, { installId: id, skillKey: first.get(id)?.skillKey ?? null, outcome: 'skipped' }]));
  const finish = (extra: Partial<InstallRunResult>): InstallRunResult => ({
    configId,
    noop: true,
    imageGeneration: null,
    imageRef: null,
    installs: [...outcomes.values()],
    ...extra,
  });
  for (const [id, r] of first) if (!isMine(r, ctx.job.id)) ctx.log(`${r?.skillKey ?? id}: ${r ? `${r.state}, not installing` : 'no longer exists'}; skipped`);
  if (!configId || ![...first.values()].some((r) => isMine(r, ctx.job.id))) return finish({});

  const stages = new Map<string, string>();
  await store.claimInstalls(
    db,
    [...first.values()].filter((r) => isMine(r, ctx.job.id)).map((r) => r!.id),
    ctx.job.id,
  );
  let mine = [...(await loadRecords(db, ids)).values()].filter((r): r is store.InstallRecord => isBound(r, ctx.job.id));
  const setStage = async (id: string, stage: string, percent: number) => {
    stages.set(id, stage);
    // A record stopped meanwhile refuses progress; its stop already says where it was.
    await store.recordProgress(db, id, { stage, percent }).catch(() => undefined);
  };
  const failOpen = async (f: SkillFailure) => {
    for (const r of mine) {
      const now = await store.getInstall(db, r.id);
      if (!isBound(now, ctx.job.id)) continue;
      await store.fail(db, actor, r.id, { ...f, stage: stages.get(r.id) ?? f.stage }).catch(() => undefined);
      outcomes.set(r.id, { installId: r.id, skillKey: r.skillKey, outcome: 'failed', error: { ...f, stage: stages.get(r.id) ?? f.stage } });
    }
  };
  try {
    return await withConfigImageLock(ctx, configId, async () => {
      mine = [...(await loadRecords(db, ids)).values()].filter((r): r is store.InstallRecord => isBound(r, ctx.job.id));
      if (!mine.length) return finish({});
      for (const r of mine) await setStage(r.id, 'boot', 5);
      const row = await loadRow(db, configId);
      ctx.log(`Installing ${mine.map((r) => `${r.skillKey} ${r.version}`).join(', ')} into ${row.name}`);
      const source = await chooseSource(deps, row, await store.activeImage(db, configId), (l) => ctx.log(l));
      const installs: BuildInstall[] = mine.map((r) => ({ installId: r.id, skillKey: r.skillKey, version: r.version, contentHash: r.contentHash }));
      const built = await buildGeneration(
        deps,
        ctx,
        { row, ...source, removals: [], installs },
        {
          wanted: async (i) => isBound(await store.getInstall(db, i.installId), ctx.job.id),
          stage: (i, stage, percent) => setStage(i.installId, stage, percent),
          phase: async (stage, percent) => {
            for (const r of mine) if (outcomes.get(r.id)?.outcome !== 'failed') await setStage(r.id, stage, percent);
          },
          failed: async (i, f) => {
            outcomes.set(i.installId, { installId: i.installId, skillKey: i.skillKey, outcome: 'failed', error: f });
            await store.fail(db, actor, i.installId, f);
          },
          switched: async (tx, generation, ok) => {
            for (const i of ok) await store.succeed(tx, actor, i.installId, { imageGeneration: generation });
          },
        },
      );
      for (const i of built.ok) {
        outcomes.set(i.installId, { installId: i.installId, skillKey: i.skillKey, outcome: 'ready' });
        ctx.log(`${i.skillKey} ${i.version} is ready in generation ${built.generation}.`);
      }
      const result = finish({ noop: !built.committed, imageGeneration: built.generation, imageRef: built.imageRef });
      if (built.failed.length) {
        const what = built.failed.map((x) => `${x.install.skillKey} (${x.failure.code}: ${x.failure.message})`).join('; ');
        throw new AppError('sandbox_error', `${built.failed.length} of ${installs.length} skill install(s) failed: ${what}`, {
          details: { reason: built.failed[0].failure.code, stage: built.failed[0].failure.stage, jobResult: result },
        });
      }
      return result;
    });
  } catch (e) {
    if (ctx.signal.aborted) {
      const why = ctx.signal.reason instanceof Error ? ctx.signal.reason.message : String(ctx.signal.reason);
      const stage = [...stages.values()].at(-1) ?? 'boot';
      for (const r of mine) {
        if (!isBound(await store.getInstall(db, r.id), ctx.job.id)) continue;
        if (why === 'cancel') await store.stop(db, actor, r.id).catch(() => undefined);
        else
          await store
            .fail(db, actor, r.id, { code: 'interrupted', message: `The install was interrupted (${why}).`, stage: stages.get(r.id) ?? stage })
            .catch(() => undefined);
      }
      throw new AppError('invalid_state', `The install was ${why === 'cancel' ? 'stopped' : `interrupted (${why})`} during ${stage}.`);
    }
    if (e instanceof BuildError) {
      ctx.log(`${e.reason}: ${e.message}`, 'stderr');
      await failOpen({ code: e.reason, message: e.message, stage: e.stage });
    } else if (!(e instanceof AppError && (e.details as { jobResult?: unknown } | undefined)?.jobResult)) {
      await failOpen({ code: 'install_error', message: e instanceof Error ? e.message : String(e), stage: 'install' });
    }
    throw e;
  }
}
