// Rebuilding a config's image from its base image, as a job: every skill the active generation
// holds is installed again from the skill store (its recorded version and content hash) into one
// new generation. For an active image that went missing from the engine, and to start again below
// the layer limit. The install records keep their state throughout.
import { and, eq, inArray } from 'drizzle-orm';
import type { ImageSkill } from '@/db/schema';
import { sandboxSkillInstalls } from '@/db/schema';
import { AppError } from '../../core/errors';
import type { JobContext } from '../../jobs/types';
import { loadRow } from '../../sandbox/config/store';
import { type BuildDeps, buildGeneration } from '../generations/build';
import * as store from '../records/store';
import { withConfigImageLock } from './config-lock';

export interface RebuildParams {
  configId: string;
  reason?: string;
}

export interface RebuildResult {
  configId: string;
  noop: boolean;
  imageGeneration: number | null;
  imageRef: string | null;
  layers: number | null;
  skills: ImageSkill[];
}

/** What the new generation must hold: the active generation's skills, or without one the ready records. */
async function wantedSkills(deps: BuildDeps, configId: string): Promise<{ skills: ImageSkill[]; from: string }> {
  const active = await store.activeImage(deps.db, configId);
  if (active) return { skills: active.skills, from: `generation ${active.generation}` };
  const t = sandboxSkillInstalls;
  const rows = await deps.db
    .select({ skillKey: t.skillKey, version: t.version, contentHash: t.contentHash })
    .from(t)
    .where(and(eq(t.configId, configId), inArray(t.state, ['ready', 'disabled'])));
  return { skills: rows, from: 'the ready installs' };
}

export async function runRebuild(deps: BuildDeps, ctx: JobContext<RebuildParams>): Promise<RebuildResult> {
  const { configId } = ctx.params;
  if (ctx.params.reason) ctx.log(`Reason: ${ctx.params.reason}`);
  return withConfigImageLock(ctx, configId, async () => {
    const row = await loadRow(deps.db, configId);
    if (row.backend !== 'docker') throw new AppError('invalid_state', `Only Docker configs have snapshot images; this is a ${row.backend} config.`);
    const wanted = await wantedSkills(deps, configId);
    const result: RebuildResult = { configId, noop: true, imageGeneration: null, imageRef: null, layers: null, skills: wanted.skills };
    if (!wanted.skills.length && !(await store.activeImage(deps.db, configId))) {
      ctx.log('This config has no snapshot and no installed skills: new sandboxes already start from the base image.');
      return result;
    }
    ctx.log(`Rebuilding ${row.name} from its base image with the ${wanted.skills.length} skill(s) of ${wanted.from}`);
    for (const s of wanted.skills) ctx.log(`  ${s.skillKey} ${s.version}`);
    const built = await buildGeneration(deps, ctx, { row, from: null, carry: wanted.skills, removals: [], installs: [] }, { switched: async () => {} });
    ctx.log(`Generation ${built.generation} is active (${built.layers} layers).`);
    return { ...result, noop: false, imageGeneration: built.generation, imageRef: built.imageRef, layers: built.layers };
  });
}
