// Download digests computed in a worker thread: the same hex as node:crypto on the event loop, for
// every algorithm asked for, with the caller's buffers left intact and the queue bounded.

// Download digests computed in a worker thread: the same hex as node:crypto on the event loop, for
// every algorithm asked for, with the caller's buffers left intact and the queue bounded.
import crypto, { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_IN_FLIGHT, sharedBlock, WorkerHasher } from './hash-worker';

describe('WorkerHasher', () => {
  it('gives the digests createHash gives, over many blocks, for sha256 and the algorithms asked for', async () => {
    const data = crypto.randomBytes(3 * HASH_IN_FLIGHT + 12345);
    const h = new WorkerHasher(['sha512', 'md5']);
    for (let o = 0; o < data.length; o += 300 * 1024) await h.update(data.subarray(o, o + 300 * 1024));
    const d = await h.digests();
    expect(d).toEqual({
      sha256: createHash('sha256').update(data).digest('hex'),
      sha512: createHash('sha512').update(data).digest('hex'),
      md5: createHash('md5').update(data).digest('hex'),
    });
  });

  it('hashes a copy: the caller may reuse its buffer at once', async () => {
    const block = Buffer.alloc(64 * 1024, 1);
    const h = new WorkerHasher([]);
    await h.update(block);
    block.fill(2);
    await h.update(block);
    expect(block.length).toBe(64 * 1024);
    const want = createHash('sha256')
      .update(Buffer.alloc(64 * 1024, 1))
      .update(Buffer.alloc(64 * 1024, 2))
      .digest('hex');
    expect((await h.digests()).sha256).toBe(want);
  });

  it('reads blocks joined into shared memory in place: the same digest as the parts', async () => {
    const parts = [crypto.randomBytes(70_000), crypto.randomBytes(1), crypto.randomBytes(200_000)];
    const block = sharedBlock(parts, 270_001);
    expect(block.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(block.equals(Buffer.concat(parts))).toBe(true);
    const h = new WorkerHasher([]);
    await h.update(block);
    expect((await h.digests()).sha256).toBe(createHash('sha256').update(Buffer.concat(parts)).digest('hex'));
  });

  it('an empty input has the empty digest; close() before the end ends the thread without an answer', async () => {
    expect((await new WorkerHasher([]).digests()).sha256).toBe(createHash('sha256').digest('hex'));
    const h = new WorkerHasher([]);
    await h.update(Buffer.from('x'));
    h.close();
  });
});
