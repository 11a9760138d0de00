/**
 * Streams a download into a file atomically: a private temp file next to the target (created
 * exclusively), a byte cap enforced while streaming, sha256 on the fly, fsync, then rename. On any
 * failure the partial file is removed, so a caller never sees half a download.
 */
import { createHash, randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '@/lib/core/errors';

export interface SinkResult {
  bytes: number;
  sha256: string;
}

export function tooLarge(maxBytes: number, declared?: number): AppError {
  return new AppError('archive_too_large', `The download is larger than the ${maxBytes} byte limit${declared ? ` (declared ${declared} bytes)` : ''}.`, {
    details: { maxBytes, ...(declared ? { declared } : {}) },
  });
}

/** Writes `body` to `destFile` (replacing it) unless it exceeds `maxBytes`; removes partial files. */
export async function streamToFile(body: Readable | AsyncIterable<Uint8Array>, destFile: string, maxBytes: number): Promise<SinkResult> {
  const dir = path.dirname(destFile);
  const temp = path.join(dir, `.${path.basename(destFile)}.${randomBytes(6).toString('hex')}.part`);
  const hash = createHash('sha256');
  let bytes = 0;
  const handle = await fsp.open(temp, 'wx', 0o600);
  let closed = false;
  try {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      bytes += buf.length;
      if (bytes > maxBytes) throw tooLarge(maxBytes);
      hash.update(buf);
      await handle.write(buf);
    }
    await handle.sync();
    await handle.close();
    closed = true;
    await fsp.rename(temp, destFile);
    return { bytes, sha256: hash.digest('hex') };
  } catch (e) {
    if (!closed) await handle.close().catch(() => undefined);
    await fsp.rm(temp, { force: true });
    // Stop the source so the socket is released.
    (body as Readable).destroy?.();
    throw e;
  }
}
