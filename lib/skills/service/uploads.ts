/**
 * Skill archive uploads: streamed into the database's blob store with a size cap and a sha256
 * computed on the way, verified against the declared one, kept for one hour for the import job,
 * which any replica may run.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { eq, lt } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { uploads } from '@/db/schema';
import { AppError, hasCode } from '@/lib/core/errors';
import type { BlobStore } from '../../cluster/blob-store';
import { randomToken } from '../../core/ids';
import { logger } from '../../core/logger';
import { blobUsedByStore } from '../shared/rows';

export const UPLOAD_TTL_MS = 60 * 60 * 1000;

/** Refuses uploads (and imports of earlier uploads) while the skills setting switches them off. */
export function assertUploadsAllowed(settings: { allowUploadedArchives: boolean }): void {
  if (!settings.allowUploadedArchives)
    throw new AppError('not_allowed', 'Skill archive uploads are switched off on this server.', {
      hint: 'Import from ClawHub, git or a URL instead, or have an admin switch on "Allow uploaded archives" (allowUploadedArchives) in Settings → Skills.',
      details: { setting: 'allowUploadedArchives' },
    });
}
const ID = /^[A-Za-z0-9_-]{16,64}$/;

export interface UploadRecord {
  uploadId: string;
  size: number;
  sha256: string;
  filename: string | null;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
}

/** Where this replica keeps its copy of an upload's bytes for the import job (a cache: the database has them). */
const fileOf = (dir: string, sha256: string) => path.join(dir, `${sha256}.bin`);

export interface UploadDeps {
  db: AppDb;
  blobs: BlobStore;
  /** This replica's cache of upload bytes. */
  dir: string;
}

/** Removes uploads older than the TTL: their records, the bytes no other upload or stored skill version names, and this replica's cached copies. */
export async function sweepUploads(deps: UploadDeps, now = Date.now()): Promise<void> {
  const gone = await deps.db
    .delete(uploads)
    .where(lt(uploads.expiresAt, new Date(now)))
    .returning({ sha256: uploads.sha256 });
  for (const sha of new Set(gone.map((g) => g.sha256))) {
    const [other] = await deps.db.select({ id: uploads.id }).from(uploads).where(eq(uploads.sha256, sha)).limit(1);
    if (!other && !(await blobUsedByStore(deps.db, sha))) await deps.blobs.delete(sha);
  }
  const names = await fsp.readdir(deps.dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (n) => {
      const st = await fsp.stat(path.join(deps.dir, n)).catch(() => null);
      if (st && now - st.mtimeMs > UPLOAD_TTL_MS) await fsp.rm(path.join(deps.dir, n), { force: true });
    }),
  );
}

export async function saveUpload(
  deps: UploadDeps,
  body: ReadableStream<Uint8Array> | null,
  opts: { maxBytes: number; declaredSize?: number; declaredSha256?: string; filename?: string; actor: string; signal?: AbortSignal },
): Promise<UploadRecord> {
  if (!body) throw new AppError('validation', 'The upload has no body: send the archive bytes as the request body.');
  if (opts.declaredSize !== undefined && opts.declaredSize > opts.maxBytes) {
    throw new AppError('archive_too_large', `The archive is ${opts.declaredSize} bytes; the limit is ${opts.maxBytes} bytes (Settings → Skills).`, {
      details: { maxBytes: opts.maxBytes },
    });
  }
  if (opts.declaredSha256 !== undefined && !/^[0-9a-f]{64}$/i.test(opts.declaredSha256))
    throw new AppError('validation', 'x-content-sha256 must be 64 hex characters.');
  void sweepUploads(deps).catch((e) => logger.warn('upload sweep failed', { error: String(e) }));
  const { sha256, size } = await deps.blobs.put(pieces(body, opts.signal), { maxBytes: opts.maxBytes }).catch((e) => {
    if (hasCode(e, 'payload_too_large'))
      throw new AppError('archive_too_large', `The archive is larger than the ${opts.maxBytes} byte limit (Settings → Skills).`, {
        details: { maxBytes: opts.maxBytes },
      });
    throw e;
  });
  // Bytes refused here are left to the sweep (another upload may name the same content).
  if (size === 0) throw new AppError('validation', 'The uploaded archive is empty.');
  if (opts.declaredSize !== undefined && size !== opts.declaredSize)
    throw new AppError('validation', `The upload ended after ${size} of ${opts.declaredSize} bytes; send it again.`);
  if (opts.declaredSha256 && opts.declaredSha256.toLowerCase() !== sha256) {
    throw new AppError('hash_mismatch', `The archive's sha256 is ${sha256}, not the declared ${opts.declaredSha256}: the upload was corrupted or changed.`);
  }
  const now = Date.now();
  const record: UploadRecord = {
    uploadId: randomToken(18),
    size,
    sha256,
    filename: opts.filename ?? null,
    createdBy: opts.actor,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + UPLOAD_TTL_MS).toISOString(),
  };
  await deps.db.insert(uploads).values({
    id: record.uploadId,
    sha256,
    size,
    filename: record.filename,
    createdBy: opts.actor,
    createdAt: new Date(now),
    expiresAt: new Date(now + UPLOAD_TTL_MS),
  });
  return record;
}

async function* pieces(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The record of an upload, or upload_expired. */
export async function uploadRecord(db: AppDb, uploadId: string, now = Date.now()): Promise<UploadRecord> {
  if (!ID.test(uploadId)) throw new AppError('validation', 'Not an upload id.');
  const [row] = await db.select().from(uploads).where(eq(uploads.id, uploadId));
  if (!row || row.expiresAt.getTime() < now) {
    throw new AppError('upload_expired', 'This upload is unknown or older than one hour; upload the archive again.');
  }
  return {
    uploadId: row.id,
    size: row.size,
    sha256: row.sha256,
    filename: row.filename,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * The stored archive of an upload as a file of this replica, or upload_expired. The bytes come
 * from the database the first time this replica needs them (hash checked), whichever replica took
 * the upload.
 */
export async function uploadFile(deps: UploadDeps, uploadId: string, now = Date.now()): Promise<{ file: string; record: UploadRecord }> {
  const record = await uploadRecord(deps.db, uploadId, now);
  const file = fileOf(deps.dir, record.sha256);
  if (
    await fsp.stat(file).then(
      (st) => st.size === record.size,
      () => false,
    )
  )
    return { file, record };
  await fsp.mkdir(deps.dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${randomToken(6)}.part`;
  try {
    await pipeline(await deps.blobs.get(record.sha256), fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    if (hasCode(e, 'not_found')) throw new AppError('upload_expired', 'This upload is unknown or older than one hour; upload the archive again.');
    throw e;
  }
  return { file, record };
}
