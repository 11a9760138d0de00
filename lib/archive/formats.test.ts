// The streaming decompressors: how many pieces a large gzip stream comes out in (each piece is one
// round trip to zlib's threadpool, which is what a large asset's extraction waits on).
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decompress } from './formats';

describe('decompress gzip', () => {
  it('inflates a large stream in blocks of 256 KiB, not zlib default 16 KiB', async () => {
    const raw = crypto.randomBytes(8 * 1024 * 1024);
    const gz = zlib.gzipSync(raw);
    const input = Readable.from(
      (function* () {
        for (let o = 0; o < gz.length; o += 1024 * 1024) yield gz.subarray(o, o + 1024 * 1024);
      })(),
    );
    const pieces: Buffer[] = [];
    for await (const chunk of decompress('gzip', input)) pieces.push(chunk as Buffer);
    expect(Buffer.concat(pieces).equals(raw)).toBe(true);
    // 8 MiB in 256 KiB blocks is 32; reads that drain several buffered blocks at once only lower it.
    expect(pieces.length).toBeLessThanOrEqual(40);
  });
});
