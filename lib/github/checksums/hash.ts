/**
 * Streaming hashers for downloads and files on disk.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import type { HashAlgorithm } from './parse';

export interface MultiHasher {
  update(chunk: Uint8Array): void;
  /** Lower-case hex per algorithm; sha256 is always present. Call once, at the end. */
  digests(): Record<HashAlgorithm, string> & { sha256: string };
  readonly bytes: number;
  /** A pass-through stream that hashes what flows through it (hash while downloading). */
  transform(): Transform;
}

/** Hash one stream for several algorithms at once (sha256 always included). */
export function createMultiHasher(algorithms: Iterable<HashAlgorithm> = []): MultiHasher {
  const algs = new Set<HashAlgorithm>(['sha256', ...algorithms]);
  const hashes = new Map<HashAlgorithm, Hash>([...algs].map((a) => [a, createHash(a)]));
  let bytes = 0;
  let done: (Record<HashAlgorithm, string> & { sha256: string }) | null = null;
  const hasher: MultiHasher = {
    update(chunk) {
      if (done) throw new Error('MultiHasher: update after digests()');
      bytes += chunk.length;
      for (const h of hashes.values()) h.update(chunk);
    },
    digests() {
      if (!done) {
        const out: Partial<Record<HashAlgorithm, string>> = {};
        for (const [a, h] of hashes) out[a] = h.digest('hex');
        done = out as Record<HashAlgorithm, string> & { sha256: string };
      }
      return done;
    },
    get bytes() {
      return bytes;
    },
    transform() {
      return new Transform({
        transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
          hasher.update(chunk);
          cb(null, chunk);
        },
      });
    },
  };
  return hasher;
}

/** Hash a file on disk (streamed) for the given algorithms plus sha256. */
export async function hashFile(
  path: string,
  algorithms: Iterable<HashAlgorithm> = [],
): Promise<Record<HashAlgorithm, string> & { sha256: string; bytes: number }> {
  const h = createMultiHasher(algorithms);
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return { ...h.digests(), bytes: h.bytes };
}
