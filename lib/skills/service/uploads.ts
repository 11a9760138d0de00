/**
 * Skill archive uploads: streamed to a private folder with a size cap and a sha256
 * computed on the way, verified against the declared one, kept for one hour for the import job.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { randomToken } from '../../core/ids';

export const UPLOAD_TTL_MS = 60 * 60 * 1000;
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

const fileOf = (dir: string, id: string) => path.join(dir, `${id}.bin`);
const metaOf = (dir: string, id: string) => path.join(dir, `${id}.json`);

/** Removes uploads older than the TTL. */
export async function sweepUploads(dir: string, now = Date.now()): Promise<void> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (n) => {
      const st = await fsp.stat(path.join(dir, n)).catch(() => null);
      if (st && now - st.mtimeMs > UPLOAD_TTL_MS) await fsp.rm(path.join(dir, n), { force: true });
    }),
  );
}

export async function saveUpload(
  dir: string,
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
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  void sweepUploads(dir);
  const uploadId = randomToken(18);
  const tmp = `${fileOf(dir, uploadId)}.part`;
  const hash = createHash('sha256');
  let size = 0;
  const out = fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
  try {
    const reader = body.getReader();
    for (;;) {
      opts.signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > opts.maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new AppError('archive_too_large', `The archive is larger than the ${opts.maxBytes} byte limit (Settings → Skills).`, {
          details: { maxBytes: opts.maxBytes },
        });
      }
      hash.update(value);
      if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const sha256 = hash.digest('hex');
    if (size === 0) throw new AppError('validation', 'The uploaded archive is empty.');
    if (opts.declaredSize !== undefined && size !== opts.declaredSize)
      throw new AppError('validation', `The upload ended after ${size} of ${opts.declaredSize} bytes; send it again.`);
    if (opts.declaredSha256 && opts.declaredSha256.toLowerCase() !== sha256) {
      throw new AppError('hash_mismatch', `The archive's sha256 is ${sha256}, not the declared ${opts.declaredSha256}: the upload was corrupted or changed.`);
    }
    await fsp.rename(tmp, fileOf(dir, uploadId));
    const now = Date.now();
    const record: UploadRecord = {
      uploadId,
      size,
      sha256,
      filename: opts.filename ?? null,
      createdBy: opts.actor,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + UPLOAD_TTL_MS).toISOString(),
    };
    await fsp.writeFile(metaOf(dir, uploadId), JSON.stringify(record), { mode: 0o600 });
    return record;
  } catch (e) {
    // The file may still be opening: wait for the stream to close, or the .part could appear after the rm.
    await new Promise<void>((resolve) => {
      if (out.closed) return resolve();
      out.once('close', () => resolve());
      out.destroy();
    });
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}

/** The stored archive of an upload, or upload_expired. */
export async function uploadFile(dir: string, uploadId: string, now = Date.now()): Promise<{ file: string; record: UploadRecord }> {
  if (!ID.test(uploadId)) throw new AppError('validation', 'Not an upload id.');
  const raw = await fsp.readFile(metaOf(dir, uploadId), 'utf8').catch(() => null);
  const record = raw ? (JSON.parse(raw) as UploadRecord) : null;
  if (!record || Date.parse(record.expiresAt) < now) {
    throw new AppError('upload_expired', 'This upload is unknown or older than one hour; upload the archive again.');
  }
  return { file: fileOf(dir, uploadId), record };
}
