/** The database's side of the shared skill store: reading a slug's rows and recording each change in one transaction. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxArtifactFiles, skillStoreSlugs, skillStoreVersions, uploads } from '@/db/schema';
import type { BlobStore } from '../../cluster/blob-store';
import { publishChange } from '../../cluster/invalidation';
import type { VersionRecord } from '../store';

export interface SlugRow {
  slug: string;
  active: string | null;
  pinned: boolean;
  pinReason: string | null;
  removed: boolean;
}

export interface VersionRow {
  slug: string;
  version: string;
  contentHash: string;
  blobSha256: string;
  blobSize: number;
  record: VersionRecord;
}

export interface StoreRows {
  slugs: Map<string, SlugRow>;
  versions: Map<string, VersionRow[]>;
}

/** A number that changes whenever any slug's row changes (every change of the store updates its slug's row). */
export async function storeGeneration(db: AppDb): Promise<string> {
  const [row] = await db.select({ g: sql<string>`coalesce(sum(${skillStoreSlugs.changedSeq}), 0)::text || ':' || count(*)::text` }).from(skillStoreSlugs);
  return row?.g ?? '0:0';
}

const slugView = (r: typeof skillStoreSlugs.$inferSelect): SlugRow => ({
  slug: r.slug,
  active: r.active,
  pinned: r.pinned,
  pinReason: r.pinReason,
  removed: r.removedAt !== null,
});

const versionView = (r: typeof skillStoreVersions.$inferSelect): VersionRow => ({
  slug: r.slug,
  version: r.version,
  contentHash: r.contentHash,
  blobSha256: r.blobSha256,
  blobSize: r.blobSize,
  record: r.record as unknown as VersionRecord,
});

/** Every slug's row and versions, or one slug's. */
export async function readRows(db: AppDb, slug?: string): Promise<StoreRows> {
  const [slugRows, versionRows] = await Promise.all([
    slug ? db.select().from(skillStoreSlugs).where(eq(skillStoreSlugs.slug, slug)) : db.select().from(skillStoreSlugs),
    slug ? db.select().from(skillStoreVersions).where(eq(skillStoreVersions.slug, slug)) : db.select().from(skillStoreVersions),
  ]);
  const versions = new Map<string, VersionRow[]>();
  for (const r of versionRows) {
    const list = versions.get(r.slug) ?? [];
    list.push(versionView(r));
    versions.set(r.slug, list);
  }
  return { slugs: new Map(slugRows.map((r) => [r.slug, slugView(r)])), versions };
}

type Tx = Parameters<Parameters<AppDb['transaction']>[0]>[0];

/** Writes the slug's row (a new change number each time) and tells every replica, on commit. */
async function touchSlug(tx: Tx, slug: string, set: Partial<typeof skillStoreSlugs.$inferInsert>): Promise<void> {
  const changedSeq = sql`nextval('skill_store_seq')`;
  await tx
    .insert(skillStoreSlugs)
    .values({ slug, ...set })
    .onConflictDoUpdate({ target: skillStoreSlugs.slug, set: { ...set, changedSeq, updatedAt: new Date() } });
  await publishChange(tx, 'skills', slug);
}

/** A new version, made the active one. */
export async function recordInstall(db: AppDb, v: VersionRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(skillStoreVersions).values({ ...v, record: v.record as unknown as Record<string, unknown> });
    await touchSlug(tx, v.slug, { active: v.version, removedAt: null });
  });
}

export async function recordActive(db: AppDb, slug: string, version: string): Promise<void> {
  await db.transaction((tx) => touchSlug(tx, slug, { active: version }));
}

export async function recordPinned(db: AppDb, slug: string, pinned: boolean, reason: string | null): Promise<void> {
  await db.transaction((tx) => touchSlug(tx, slug, { pinned, pinReason: pinned ? reason : null }));
}

/** The slug's versions go, its row stays as a tombstone (a replica that was away removes its copy); answers the blobs they named. */
export async function recordRemoval(db: AppDb, slug: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(skillStoreVersions).where(eq(skillStoreVersions.slug, slug)).returning({ sha: skillStoreVersions.blobSha256 });
    await touchSlug(tx, slug, { active: null, pinned: false, pinReason: null, removedAt: new Date() });
    return [...new Set(gone.map((g) => g.sha))];
  });
}

/** Deletes the blobs that no stored version, no upload and no collected sandbox artifact names any more (bytes are shared by content). */
export async function deleteUnusedBlobs(db: AppDb, blobs: BlobStore, shas: readonly string[]): Promise<string[]> {
  if (!shas.length) return [];
  const [versionRefs, uploadRefs, artifactRefs] = await Promise.all([
    db
      .select({ sha: skillStoreVersions.blobSha256 })
      .from(skillStoreVersions)
      .where(inArray(skillStoreVersions.blobSha256, [...shas])),
    db
      .select({ sha: uploads.sha256 })
      .from(uploads)
      .where(inArray(uploads.sha256, [...shas])),
    db
      .select({ sha: sandboxArtifactFiles.sha256 })
      .from(sandboxArtifactFiles)
      .where(inArray(sandboxArtifactFiles.sha256, [...shas])),
  ]);
  const used = new Set([...versionRefs, ...uploadRefs, ...artifactRefs].map((r) => r.sha));
  const unused = shas.filter((s) => !used.has(s));
  for (const sha of unused) await blobs.delete(sha);
  return unused;
}

/** Whether a stored version or a collected sandbox artifact names this blob (the upload sweep must not delete it). */
export async function blobUsedByStore(db: AppDb, sha256: string): Promise<boolean> {
  const [row] = await db.select({ slug: skillStoreVersions.slug }).from(skillStoreVersions).where(eq(skillStoreVersions.blobSha256, sha256)).limit(1);
  if (row) return true;
  const [art] = await db.select({ id: sandboxArtifactFiles.id }).from(sandboxArtifactFiles).where(eq(sandboxArtifactFiles.sha256, sha256)).limit(1);
  return !!art;
}

/** A slug of a store that predates the shared one, recorded whole: its versions and which is active. */
export async function recordMigration(
  db: AppDb,
  slug: string,
  versions: VersionRow[],
  active: string,
  pin: { pinned: boolean; pinReason: string | null },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [exists] = await tx.select({ slug: skillStoreSlugs.slug }).from(skillStoreSlugs).where(eq(skillStoreSlugs.slug, slug)).for('update');
    if (exists) return false;
    for (const v of versions) await tx.insert(skillStoreVersions).values({ ...v, record: v.record as unknown as Record<string, unknown> });
    await touchSlug(tx, slug, { active, removedAt: null, ...pin });
    return true;
  });
}

/** Points a version's row at a blob put again (its old blob was gone). */
export async function recordBlob(db: AppDb, slug: string, version: string, blob: { sha256: string; size: number }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(skillStoreVersions)
      .set({ blobSha256: blob.sha256, blobSize: blob.size })
      .where(and(eq(skillStoreVersions.slug, slug), eq(skillStoreVersions.version, version)));
    await touchSlug(tx, slug, {});
  });
}
