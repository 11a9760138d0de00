// Reading collected artifacts: lists with a file-name search and paging, one file's bytes.
import type { Readable } from 'node:stream';
import { and, asc, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxArtifactCollections as collections, sandboxArtifactFiles as files } from '@/db/schema';
import { type BlobStore, DbBlobStore } from '../../cluster/blob-store';
import { AppError } from '../../core/errors';
import { type CollectionRow, fileById, sessionOf } from './records';
import type { ArtifactCollection, ArtifactList, ArtifactListQuery } from './schema';

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function collectionView(r: CollectionRow): ArtifactCollection {
  return {
    ...r,
    skipped: r.skipped ?? {},
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt ? r.finishedAt.toISOString() : null,
  };
}

const ORDER = {
  collectedAt: collections.startedAt,
  name: files.name,
  size: files.size,
  path: files.path,
} as const;

export async function listArtifacts(db: AppDb, q: ArtifactListQuery): Promise<ArtifactList> {
  const where: SQL[] = [];
  if (q.configId) where.push(eq(collections.configId, q.configId));
  if (q.sandbox) where.push(eq(collections.instanceId, q.sandbox));
  if (q.session) where.push(eq(collections.sessionId, await sessionOf(db, q.session)));
  if (q.principal) where.push(eq(collections.principal, q.principal));
  const scope = where.length ? and(...where) : undefined;
  const fileWhere = q.q?.trim() ? and(scope, ilike(files.name, `%${likeEscape(q.q.trim())}%`)) : scope;
  const field = q.sort.replace(/^-/, '') as keyof typeof ORDER;
  const dir = q.sort.startsWith('-') ? desc : asc;
  const [rows, [{ n }], cols] = await Promise.all([
    db
      .select({ file: files, c: collections })
      .from(files)
      .innerJoin(collections, eq(files.collectionId, collections.id))
      .where(fileWhere)
      .orderBy(dir(ORDER[field]), asc(files.path), asc(files.id))
      .limit(q.limit)
      .offset(q.offset),
    db.select({ n: count() }).from(files).innerJoin(collections, eq(files.collectionId, collections.id)).where(fileWhere),
    db.select().from(collections).where(scope).orderBy(desc(collections.startedAt), desc(collections.id)).limit(50),
  ]);
  return {
    items: rows.map(({ file, c }) => ({
      id: file.id,
      collectionId: c.id,
      path: file.path,
      name: file.name,
      size: file.size,
      sha256: file.sha256,
      modifiedAt: file.modifiedAt ? file.modifiedAt.toISOString() : null,
      collectedAt: c.startedAt.toISOString(),
      trigger: c.trigger,
      configId: c.configId,
      configName: c.configName,
      instanceId: c.instanceId,
      sessionId: c.sessionId,
      principal: c.principal,
    })),
    total: Number(n),
    offset: q.offset,
    limit: q.limit,
    collections: cols.map(collectionView),
  };
}

/** A file name fit for a Content-Disposition header: an ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(name: string): string {
  const ascii =
    name
      .replace(/[^A-Za-z0-9._ -]/g, '_')
      .replace(/^[. ]+/, '_')
      .slice(0, 200) || 'file';
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

export async function openArtifact(
  db: AppDb,
  fileId: string,
  blobs: BlobStore = new DbBlobStore(db),
): Promise<{ name: string; size: number; sha256: string; stream: Readable }> {
  const found = await fileById(db, fileId);
  if (!found) throw new AppError('not_found', 'This artifact was not found; retention may have removed its collection.');
  const stream = await blobs.get(found.file.sha256);
  return { name: found.file.name, size: found.file.size, sha256: found.file.sha256, stream };
}
