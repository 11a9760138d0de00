// Retention of collected artifacts: per config the newest `keepPerConfig` collections stay, none
// older than `maxAgeDays`; a removed collection's blobs go when nothing else names them. A
// collection its replica never finished (the process died) is closed as failed.
import { and, count, desc, eq, gt, lt } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxArtifactCollections as collections } from '@/db/schema';
import { type ArtifactLimits, artifactLimits } from './limits';
import { deleteCollections } from './records';

const DAY_MS = 86_400_000;

export interface ArtifactPruneResult {
  collections: number;
  blobs: number;
  interrupted: number;
}

export async function pruneArtifacts(db: AppDb, over: Partial<ArtifactLimits> = {}, now = new Date()): Promise<ArtifactPruneResult> {
  const limits = artifactLimits(over);
  const interrupted = await db
    .update(collections)
    .set({ status: 'failed', note: 'Collection interrupted: the process collecting it stopped before it finished.', finishedAt: now })
    .where(and(eq(collections.status, 'collecting'), lt(collections.startedAt, new Date(now.getTime() - 2 * limits.timeoutMs - 60_000))))
    .returning({ id: collections.id });
  const ids = new Set(
    (
      await db
        .select({ id: collections.id })
        .from(collections)
        .where(lt(collections.startedAt, new Date(now.getTime() - limits.maxAgeDays * DAY_MS)))
    ).map((r) => r.id),
  );
  const crowded = await db
    .select({ configId: collections.configId, n: count() })
    .from(collections)
    .groupBy(collections.configId)
    .having(({ n }) => gt(n, limits.keepPerConfig));
  for (const { configId } of crowded) {
    const extra = await db
      .select({ id: collections.id })
      .from(collections)
      .where(eq(collections.configId, configId))
      .orderBy(desc(collections.startedAt), desc(collections.id))
      .offset(limits.keepPerConfig);
    for (const r of extra) ids.add(r.id);
  }
  const gone = await deleteCollections(db, [...ids]);
  return { ...gone, interrupted: interrupted.length };
}
