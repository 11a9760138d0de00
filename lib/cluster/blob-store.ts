// Content-addressed bytes every replica can read: chunks in blob_chunks, one row in blobs per
// complete blob. Bytes stream in and out a chunk at a time (never whole in memory); a read checks
// the sha256 of what it returned. One interface, so an object store can take the database's place.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, like, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { blobChunks, blobs } from '@/db/schema';
import { AppError } from '../core/errors';

export const CHUNK_BYTES = 256 * 1024;
/** Chunks of a put that never committed are removed once this old (the put died with its replica). */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;
const SHA = /^[0-9a-f]{64}$/;
const PENDING = 'pending:';

export interface BlobRef {
  sha256: string;
  size: number;
}

export interface BlobStore {
  /** Stores the bytes of `source`; the same bytes put twice are stored once. */
  put(source: AsyncIterable<Uint8Array>, opts?: { maxBytes?: number }): Promise<BlobRef>;
  /** Null when no such blob is stored. */
  stat(sha256: string): Promise<BlobRef | null>;
  /** The bytes, failing (hash_mismatch) at their end if they are not what `sha256` names. */
  get(sha256: string): Promise<Readable>;
  delete(sha256: string): Promise<void>;
  /** Removes chunks no blob owns that are older than ORPHAN_AGE_MS; answers how many. */
  gc(now?: number): Promise<number>;
}

/** Re-cuts a stream of any piece sizes into CHUNK_BYTES pieces (the last may be shorter). */
async function* rechunk(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let held = 0;
  for await (const piece of source) {
    let b = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (held + b.length >= size) {
      const take = size - held;
      parts.push(b.subarray(0, take));
      yield Buffer.concat(parts);
      b = b.subarray(take);
      parts = [];
      held = 0;
    }
    if (b.length) {
      parts.push(Buffer.from(b)); // the source may reuse its buffer
      held += b.length;
    }
  }
  if (held) yield Buffer.concat(parts);
}

export class DbBlobStore implements BlobStore {
  constructor(
    private readonly db: AppDb,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {}

  async put(source: AsyncIterable<Uint8Array>, opts: { maxBytes?: number } = {}): Promise<BlobRef> {
    // The chunks go in under a pending key naming when the put began; the blob's row, written last
    // in one transaction with the chunks' final key, is the commit.
    const pending = `${PENDING}${Date.now()}:${randomBytes(9).toString('hex')}`;
    const hash = createHash('sha256');
    let size = 0;
    let idx = 0;
    try {
      for await (const chunk of rechunk(source, this.chunkBytes)) {
        size += chunk.length;
        if (opts.maxBytes !== undefined && size > opts.maxBytes)
          throw new AppError('payload_too_large', `The content is larger than the ${opts.maxBytes} byte limit.`, { details: { maxBytes: opts.maxBytes } });
        hash.update(chunk);
        await this.db.insert(blobChunks).values({ sha256: pending, idx: idx++, data: chunk });
      }
      const sha256 = hash.digest('hex');
      await this.db.transaction(async (tx) => {
        const [have] = await tx.insert(blobs).values({ sha256, size, chunks: idx }).onConflictDoNothing().returning({ sha256: blobs.sha256 });
        if (have) await tx.update(blobChunks).set({ sha256 }).where(eq(blobChunks.sha256, pending));
        else await tx.delete(blobChunks).where(eq(blobChunks.sha256, pending));
      });
      return { sha256, size };
    } catch (e) {
      await this.db
        .delete(blobChunks)
        .where(eq(blobChunks.sha256, pending))
        .catch(() => undefined); // else gc removes them
      throw e;
    }
  }

  async stat(sha256: string): Promise<BlobRef | null> {
    if (!SHA.test(sha256)) return null;
    const [row] = await this.db.select({ sha256: blobs.sha256, size: blobs.size }).from(blobs).where(eq(blobs.sha256, sha256));
    return row ?? null;
  }

  async get(sha256: string): Promise<Readable> {
    if (!SHA.test(sha256)) throw new AppError('validation', 'A blob is named by 64 lower-case hex characters (its sha256).');
    const [row] = await this.db.select().from(blobs).where(eq(blobs.sha256, sha256));
    if (!row) throw new AppError('not_found', `No stored content has sha256 ${sha256}.`);
    const db = this.db;
    async function* chunks(): AsyncGenerator<Buffer> {
      const hash = createHash('sha256');
      let size = 0;
      for (let idx = 0; idx < row.chunks; idx++) {
        const [c] = await db
          .select({ data: blobChunks.data })
          .from(blobChunks)
          .where(and(eq(blobChunks.sha256, sha256), eq(blobChunks.idx, idx)));
        if (!c) throw new AppError('hash_mismatch', `Stored content ${sha256} lacks its part ${idx}; upload it again.`);
        hash.update(c.data);
        size += c.data.length;
        // The last part is checked before it is handed on: a reader never gets all the bytes of a corrupt blob.
        if (idx === row.chunks - 1) verify(sha256, hash.digest('hex'), size, row.size);
        yield c.data;
      }
      if (row.chunks === 0) verify(sha256, hash.digest('hex'), 0, row.size);
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async delete(sha256: string): Promise<void> {
    if (!SHA.test(sha256)) return;
    await this.db.transaction(async (tx) => {
      await tx.delete(blobs).where(eq(blobs.sha256, sha256));
      await tx.delete(blobChunks).where(eq(blobChunks.sha256, sha256));
    });
  }

  async gc(now = Date.now()): Promise<number> {
    // A pending key carries its put's start; a final key without its row is left by nothing that still runs.
    const rows = await this.db
      .selectDistinct({ sha256: blobChunks.sha256 })
      .from(blobChunks)
      .where(sql`${blobChunks.sha256} like ${`${PENDING}%`} or not exists (select 1 from ${blobs} where ${blobs.sha256} = ${blobChunks.sha256})`);
    let removed = 0;
    for (const { sha256 } of rows) {
      if (sha256.startsWith(PENDING)) {
        const began = Number(sha256.slice(PENDING.length).split(':')[0]);
        if (!(now - began > ORPHAN_AGE_MS)) continue;
      }
      const gone = await this.db
        .delete(blobChunks)
        .where(
          and(
            eq(blobChunks.sha256, sha256),
            sha256.startsWith(PENDING) ? like(blobChunks.sha256, `${PENDING}%`) : sql`not exists (select 1 from ${blobs} where ${blobs.sha256} = ${sha256})`,
          ),
        )
        .returning({ idx: blobChunks.idx });
      removed += gone.length;
    }
    return removed;
  }
}

function verify(sha256: string, got: string, size: number, expected: number): void {
  if (got !== sha256 || size !== expected)
    throw new AppError(
      'hash_mismatch',
      `Stored content ${sha256} reads back as ${got} (${size} of ${expected} bytes): it was corrupted in storage; upload it again.`,
    );
}

/** Collects orphan chunks now and then (one replica suffices; several do no harm). */
export function startBlobCollector(store: BlobStore, everyMs = 15 * 60 * 1000, onError: (e: unknown) => void = () => undefined): () => void {
  const timer = setInterval(() => void store.gc().catch(onError), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
