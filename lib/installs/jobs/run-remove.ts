// Removing a skill from a config's image, as a job: the record is already `removing`. A new
// generation is built without the skill's folder and the config switched to it together with the
// record's end; a failure before the switch returns the record to the state it was removed from.
import type { AppDb } from '@/db/client';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import type { JobContext } from '../../jobs/types';
import { loadRow } from '../../sandbox/config/store';
import { skillDir } from '../docker/build';
import { type BuildDeps, BuildError, buildGeneration, chooseSource } from '../generations/build';
import * as store from '../records/store';
import { withConfigImageLock } from './config-lock';

export interface RemoveRunResult {
  installId: string;
  skillKey: string | null;
  /** No image was built: the record was gone or taken over, or no image held the skill. */
  noop: boolean;
  imageGeneration: number | null;
  imageRef: string | null;
}

const isMine = (r: store.InstallRecord | null, jobId: string): boolean => !!r && r.state === 'removing' && (r.jobId === null || r.jobId === jobId);

export async function runRemove(deps: BuildDeps, ctx: JobContext<{ installId: string }>, actor: Actor): Promise<RemoveRunResult> {
  const db: AppDb = deps.db;
  const id = ctx.params.installId;
  const first = await store.getInstall(db, id);
  const result: RemoveRunResult = { installId: id, skillKey: first?.skillKey ?? null, noop: true, imageGeneration: null, imageRef: null };
  if (!first || !isMine(first, ctx.job.id)) {
    ctx.log(first ? `${first.skillKey} is ${first.state} now, not being removed by this job; nothing to do` : 'This install no longer exists; nothing to do');
    return result;
  }
  const key = first.skillKey;
  let stage = 'boot';
  const progress = async (s: string, percent: number) => {
    stage = s;
    await store.recordProgress(db, id, { stage: s, percent }).catch(() => undefined);
  };
  try {
    return await withConfigImageLock(ctx, first.configId, async () => {
      if (!isMine(await store.getInstall(db, id), ctx.job.id)) {
        ctx.log(`${key} is no longer being removed by this job; nothing to do`);
        return result;
      }
      await progress('boot', 5);
      const active = await store.activeImage(db, first.configId);
      if (!active?.skills.some((s) => s.skillKey === key)) {
        ctx.log(`No image of this config holds ${key}; the record goes without a rebuild.`);
        await store.finishRemove(db, actor, id);
        return result;
      }
      const row = await loadRow(db, first.configId);
      const source = await chooseSource(deps, row, active, (l) => ctx.log(l));
      ctx.log(`Removing ${key} from ${row.name}: a new generation without ${skillDir(key)}`);
      ctx.log(`Packages installed for ${key} (pip, npm, system) stay in the image: other skills may use them. Only its folder goes.`);
      const built = await buildGeneration(
        deps,
        ctx,
        { row, from: source.from, carry: source.carry.filter((s) => s.skillKey !== key), removals: [key], installs: [] },
        {
          phase: progress,
          switched: async (tx) => {
            await store.finishRemove(tx, actor, id);
          },
        },
      );
      ctx.log(`${key} is removed; generation ${built.generation} is active.`);
      return { ...result, noop: false, imageGeneration: built.generation, imageRef: built.imageRef };
    });
  } catch (e) {
    const still = isMine(await store.getInstall(db, id).catch(() => null), ctx.job.id);
    if (ctx.signal.aborted) {
      const why = ctx.signal.reason instanceof Error ? ctx.signal.reason.message : String(ctx.signal.reason);
      const code = why === 'cancel' ? 'stopped' : 'interrupted';
      if (still)
        await store
          .fail(db, actor, id, { code, message: `The removal was ${code === 'stopped' ? 'stopped' : `interrupted (${why})`}.`, stage })
          .catch(() => undefined);
      throw new AppError('invalid_state', `The removal was ${code === 'stopped' ? 'stopped' : `interrupted (${why})`} during ${stage}.`);
    }
    const code = e instanceof BuildError ? e.reason : 'remove_error';
    const message = e instanceof Error ? e.message : String(e);
    ctx.log(`${code}: ${message}`, 'stderr');
    if (still) await store.fail(db, actor, id, { code, message, stage: e instanceof BuildError ? e.stage : stage }).catch(() => undefined);
    throw e;
  }
}
