// The rows of collections and their files. A file row is written only while its blob is held with
// a share lock, and retention deletes a blob only under an update lock after finding no row that
// names it, so a collection and a retention sweep on two replicas never leave a row without bytes.
import path from 'node:path/posix';
import { and, eq, inArray } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { blobs, sandboxArtifactCollections as collections, sandboxArtifactFiles as files, skillStoreVersions, uploads } from '@/db/schema';
import { DbBlobStore } from '../../cluster/blob-store';
import { newId } from '../../core/ids';

export type CollectionRow = typeof collections.$inferSelect;
export type Trigger = CollectionRow['trigger'];
export type CollectionStatus = CollectionRow['status'];

/** The session of an instance: the first sandbox of its chain of recycles (itself when it replaced none). */
export async function sessionOf(db: AppDb, instanceId: string): Promise<string> {
  const [own] = await db.select({ s: collections.sessionId }).from(collections).where(eq(collections.instanceId, instanceId)).limit(1);
  if (own) return own.s;
  const [pred] = await db.select({ s: collections.sessionId }).from(collections).where(eq(collections.replacedBy, instanceId)).limit(1);
  return pred?.s ?? instanceId;
}

export async function openCollection(
  db: AppDb,
  v: Pick<CollectionRow, 'configId' | 'configName' | 'backend' | 'instanceId' | 'sandboxId' | 'principal' | 'replacedBy' | 'trigger' | 'createdBy'>,
): Promise<CollectionRow> {
  const sessionId = await sessionOf(db, v.instanceId);
  const [row] = await db
    .insert(collections)
    .values({ ...v, id: newId(), sessionId, status: 'collecting' })
    .returning();
  return row;
}

export async function closeCollection(
  db: AppDb,
  id: string,
  v: Pick<CollectionRow, 'status' | 'note' | 'skipped' | 'fileCount' | 'totalBytes'>,
): Promise<CollectionRow> {
  const [row] = await db
    .update(collections)
    .set({ ...v, finishedAt: new Date() })
    .where(eq(collections.id, id))
    .returning();
  return row;
}

/** Records one kept file; false when its blob vanished meanwhile (a concurrent retention sweep). */
export async function recordFile(
  db: AppDb,
  collectionId: string,
  f: { rel: string; size: number; sha256: string; mode: number; mtime?: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const held = await tx.select({ sha256: blobs.sha256 }).from(blobs).where(eq(blobs.sha256, f.sha256)).for('share');
    if (!held.length) return false;
    await tx.insert(files).values({
      id: newId(),
      collectionId,
      path: f.rel,
      name: path.basename(f.rel),
      size: f.size,
      sha256: f.sha256,
      mode: f.mode,
      modifiedAt: f.mtime && !Number.isNaN(f.mtime.getTime()) ? f.mtime : null,
    });
    return true;
  });
}

/** Deletes each blob no artifact, stored skill version or pending upload names; answers those deleted. */
export async function deleteUnreferencedBlobs(db: AppDb, shas: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  for (const sha of new Set(shas)) {
    const gone = await db.transaction(async (tx) => {
      const held = await tx.select({ sha256: blobs.sha256 }).from(blobs).where(eq(blobs.sha256, sha)).for('update');
      if (!held.length) return false;
      // One after another: a transaction is one connection.
      const ref =
        (await tx.select({ x: files.id }).from(files).where(eq(files.sha256, sha)).limit(1)).length > 0 ||
        (await tx.select({ x: skillStoreVersions.slug }).from(skillStoreVersions).where(eq(skillStoreVersions.blobSha256, sha)).limit(1)).length > 0 ||
        (await tx.select({ x: uploads.id }).from(uploads).where(eq(uploads.sha256, sha)).limit(1)).length > 0;
      if (ref) return false;
      await new DbBlobStore(tx as unknown as AppDb).delete(sha);
      return true;
    });
    if (gone) deleted.push(sha);
  }
  return deleted;
}

/** Deletes collections (their file rows cascade) and then the blobs they alone named. */
export async function deleteCollections(db: AppDb, ids: readonly string[]): Promise<{ collections: number; blobs: number }> {
  if (!ids.length) return { collections: 0, blobs: 0 };
  const shas = await db
    .selectDistinct({ sha: files.sha256 })
    .from(files)
    .where(inArray(files.collectionId, [...ids]));
  const gone = await db
    .delete(collections)
    .where(inArray(collections.id, [...ids]))
    .returning({ id: collections.id });
  const blobsGone = await deleteUnreferencedBlobs(
    db,
    shas.map((s) => s.sha),
  );
  return { collections: gone.length, blobs: blobsGone.length };
}

export async function collectionById(db: AppDb, id: string): Promise<CollectionRow | null> {
  const [row] = await db.select().from(collections).where(eq(collections.id, id));
  return row ?? null;
}

export async function fileById(db: AppDb, id: string) {
  const [row] = await db
    .select({ file: files, collection: collections })
    .from(files)
    .innerJoin(collections, eq(files.collectionId, collections.id))
    .where(and(eq(files.id, id)));
  return row ?? null;
}
