// The snapshot image records of a config: planned before the commit, one active at a time,
// superseded ones collected after a grace period.
import { and, asc, desc, eq, lte, max } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { type ImageSkill, sandboxConfigs, sandboxImages } from '@/db/schema/index';
import { AppError, notFound } from '../../core/errors';
import { newId } from '../../core/ids';
import { imageRefProblem } from '../config/image-ref';
import { requireNextImageState } from './image-states';
import { bundleRef, snapshotRef } from './snapshot-names';

export type SandboxImage = typeof sandboxImages.$inferSelect;
type Tx = Parameters<Parameters<AppDb['transaction']>[0]>[0];

const IMAGE_ID = /^sha256:[a-f0-9]{64}$/;

/**
 * The name:tag an image of `generation` is committed as: the Docker side's own naming
 * (snapshot-names.ts), so the planned record and the committed image always agree.
 */
export function plannedImageRef(configId: string, generation: number): string {
  const ref = snapshotRef(configId, generation);
  const problem = imageRefProblem(ref);
  if (problem) throw new AppError('internal', `The config id ${JSON.stringify(configId)} cannot name an image: ${problem}`);
  return ref;
}

/** Locks the config row, so plans and activations of one config run one after another. */
async function lockConfig(tx: Tx, configId: string): Promise<void> {
  const [cfg] = await tx.select({ id: sandboxConfigs.id }).from(sandboxConfigs).where(eq(sandboxConfigs.id, configId)).for('update');
  if (!cfg) throw notFound('This sandbox config');
}

async function lockImage(tx: Tx, id: string): Promise<SandboxImage> {
  const [row] = await tx.select().from(sandboxImages).where(eq(sandboxImages.id, id)).for('update');
  if (!row) throw notFound('This snapshot image');
  return row;
}

/** Records the next generation as building, with its name, before anything is committed. */
export async function planImage(db: AppDb, configId: string, opts: { skills?: ImageSkill[]; bundle?: boolean } = {}): Promise<SandboxImage> {
  return db.transaction(async (tx) => {
    await lockConfig(tx, configId);
    const [{ last }] = await tx
      .select({ last: max(sandboxImages.generation) })
      .from(sandboxImages)
      .where(eq(sandboxImages.configId, configId));
    const active = await activeImage(tx, configId);
    const generation = (last ?? 0) + 1;
    const [row] = await tx
      .insert(sandboxImages)
      .values({
        id: newId(),
        configId,
        generation,
        parentGeneration: active?.generation ?? null,
        state: 'building',
        plannedRef: opts.bundle ? bundleRef(configId, generation) : plannedImageRef(configId, generation),
        skills: opts.skills ?? [],
      })
      .returning();
    return row;
  });
}

export interface CommittedImage {
  imageId: string;
  sizeBytes?: number | null;
  layers?: number | null;
  /** What the image contains, when it differs from the plan. */
  skills?: ImageSkill[];
}

/** Makes a built image the config's one active image; the one it replaces becomes superseded. */
export async function activateImage(db: AppDb, id: string, committed: CommittedImage): Promise<{ image: SandboxImage; superseded: SandboxImage | null }> {
  if (!IMAGE_ID.test(committed.imageId)) throw new AppError('validation', 'An image id is sha256: followed by 64 lower-case hex digits.');
  return db.transaction(async (tx) => {
    // The config first, then the image: the same order as every other writer of a config's images.
    const [planned] = await tx.select({ configId: sandboxImages.configId }).from(sandboxImages).where(eq(sandboxImages.id, id));
    if (!planned) throw notFound('This snapshot image');
    await lockConfig(tx, planned.configId);
    const row = await lockImage(tx, id);
    const state = requireNextImageState(row.state, 'activate');
    const old = await activeImage(tx, row.configId);
    let superseded: SandboxImage | null = null;
    if (old) {
      [superseded] = await tx
        .update(sandboxImages)
        .set({ state: requireNextImageState(old.state, 'supersede'), supersededAt: new Date() })
        .where(eq(sandboxImages.id, old.id))
        .returning();
    }
    const [image] = await tx
      .update(sandboxImages)
      .set({
        state,
        imageId: committed.imageId,
        sizeBytes: committed.sizeBytes ?? null,
        layers: committed.layers ?? null,
        ...(committed.skills ? { skills: committed.skills } : {}),
      })
      .where(eq(sandboxImages.id, id))
      .returning();
    return { image, superseded };
  });
}

/** After the engine's image is gone (reclaimed, collected, or a plan that never committed). */
export async function markImageDeleted(db: AppDb, id: string): Promise<SandboxImage> {
  return db.transaction(async (tx) => {
    const row = await lockImage(tx, id);
    const state = requireNextImageState(row.state, 'delete');
    if (state === row.state) return row;
    const [after] = await tx.update(sandboxImages).set({ state }).where(eq(sandboxImages.id, id)).returning();
    return after;
  });
}

export async function activeImage(db: AppDb | Tx, configId: string): Promise<SandboxImage | null> {
  const [row] = await db
    .select()
    .from(sandboxImages)
    .where(and(eq(sandboxImages.configId, configId), eq(sandboxImages.state, 'active')));
  return row ?? null;
}

/** Every generation of a config, newest first. */
export async function listImages(db: AppDb, configId: string): Promise<SandboxImage[]> {
  return db.select().from(sandboxImages).where(eq(sandboxImages.configId, configId)).orderBy(desc(sandboxImages.generation));
}

/**
 * Superseded images replaced at least `graceMs` before `now`, oldest first. The collector must
 * still skip an image a running sandbox uses; this list knows nothing of running sandboxes.
 */
export async function collectableImages(db: AppDb, opts: { graceMs: number; now: Date; configId?: string }): Promise<SandboxImage[]> {
  const cutoff = new Date(opts.now.getTime() - opts.graceMs);
  return db
    .select()
    .from(sandboxImages)
    .where(
      and(
        eq(sandboxImages.state, 'superseded'),
        lte(sandboxImages.supersededAt, cutoff),
        opts.configId !== undefined ? eq(sandboxImages.configId, opts.configId) : undefined,
      ),
    )
    .orderBy(asc(sandboxImages.supersededAt));
}
