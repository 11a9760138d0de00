// test-phase: both engines. Its subject is blobs streamed in chunks through each engine.
// The database blob store on the phase's engine: a multi-chunk round trip hashed on the way out,
// the same bytes stored once, a corrupted or missing chunk refused at read, and the chunks of a
// put that never committed collected once they are old.
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { blobChunks, blobs } from '@/db/schema';
import { CHUNK_BYTES, DbBlobStore, ORPHAN_AGE_MS } from '@/lib/cluster/blob-store';
import { type TestDatabase, testDatabaseUrl } from '@/test/helpers/db';

let tdb: TestDatabase;
let database: Database;
let store: DbBlobStore;

beforeAll(async () => {
  tdb = await testDatabaseUrl();
  database = await openDatabase({ databaseUrl: tdb.url, pgliteDir: path.join(tdb.dataDir ?? '', 'pglite') });
  await migrateDatabase(database);
  store = new DbBlobStore(database.db);
}, 60_000);
afterAll(async () => {
  await database?.close();
  await tdb?.cleanup();
});

/** The bytes in uneven pieces, as a request body arrives. */
async function* pieces(buf: Buffer, size = 100_003): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function readAll(s: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of s) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('database blob store', () => {
  it('round-trips a multi-chunk file with its sha256, storing the same bytes once', async () => {
    const bytes = randomBytes(CHUNK_BYTES * 3 + 12_345);
    const ref = await store.put(pieces(bytes));
    expect(ref).toEqual({ sha256: sha(bytes), size: bytes.length });
    const [row] = await database.db.select().from(blobs).where(eq(blobs.sha256, ref.sha256));
    expect(row.chunks).toBe(4);
    const back = await readAll(await store.get(ref.sha256));
    expect(sha(back)).toBe(ref.sha256);
    expect(back.equals(bytes)).toBe(true);
    expect(await store.put(pieces(bytes, 7777))).toEqual(ref);
    const chunks = await database.db.select({ idx: blobChunks.idx }).from(blobChunks).where(eq(blobChunks.sha256, ref.sha256));
    expect(chunks.length).toBe(4);
    expect(await database.db.select().from(blobChunks).where(like(blobChunks.sha256, 'pending:%'))).toEqual([]);
  });

  it('refuses a blob whose chunk was changed in storage, before its last bytes are handed on', async () => {
    const bytes = randomBytes(CHUNK_BYTES * 2 + 10);
    const ref = await store.put(pieces(bytes));
    const bad = randomBytes(CHUNK_BYTES);
    await database.db
      .update(blobChunks)
      .set({ data: bad })
      .where(and(eq(blobChunks.sha256, ref.sha256), eq(blobChunks.idx, 1)));
    await expect(readAll(await store.get(ref.sha256))).rejects.toMatchObject({ code: 'hash_mismatch' });
    await database.db.delete(blobChunks).where(and(eq(blobChunks.sha256, ref.sha256), eq(blobChunks.idx, 1)));
    await expect(readAll(await store.get(ref.sha256))).rejects.toMatchObject({ code: 'hash_mismatch' });
    await store.delete(ref.sha256);
    expect(await store.stat(ref.sha256)).toBeNull();
    await expect(store.get(ref.sha256)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a put over its limit leaves nothing; chunks of a put that died are collected once old', async () => {
    await expect(store.put(pieces(randomBytes(CHUNK_BYTES + 1)), { maxBytes: CHUNK_BYTES })).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(await database.db.select().from(blobChunks).where(like(blobChunks.sha256, 'pending:%'))).toEqual([]);
    const began = Date.now();
    await database.db.insert(blobChunks).values({ sha256: `pending:${began}:dead`, idx: 0, data: Buffer.from('x') });
    const kept = await store.put(pieces(randomBytes(10)));
    expect(await store.gc(began + 1000)).toBe(0);
    expect(await store.gc(began + ORPHAN_AGE_MS + 1)).toBe(1);
    expect(await database.db.select().from(blobChunks).where(like(blobChunks.sha256, 'pending:%'))).toEqual([]);
    expect((await readAll(await store.get(kept.sha256))).length).toBe(10);
  });
});
