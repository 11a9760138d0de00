import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decodeEnvelopes, END_STREAM, encodeEnvelope } from './connect';

async function frames(chunks: Buffer[], max?: number) {
  const out: { flags: number; message: unknown }[] = [];
  for await (const f of decodeEnvelopes(Readable.from(chunks), max)) out.push(f);
  return out;
}

describe('Connect JSON envelopes', () => {
  it('round-trips frames split at every byte boundary', async () => {
    const wire = Buffer.concat([
      encodeEnvelope({ event: { start: { pid: 7 } } }),
      encodeEnvelope({ event: { data: { stdout: 'aGk=' } } }),
      encodeEnvelope({}, END_STREAM),
    ]);
    expect(wire.readUInt32BE(1)).toBe(Buffer.byteLength(JSON.stringify({ event: { start: { pid: 7 } } })));
    for (let cut = 1; cut < wire.length; cut++) {
      const got = await frames([wire.subarray(0, cut), wire.subarray(cut)]);
      expect(got).toEqual([
        { flags: 0, message: { event: { start: { pid: 7 } } } },
        { flags: 0, message: { event: { data: { stdout: 'aGk=' } } } },
        { flags: END_STREAM, message: {} },
      ]);
    }
  });

  it('refuses a cut frame, an oversized frame and a compressed one', async () => {
    const f = encodeEnvelope({ a: 'x'.repeat(100) });
    await expect(frames([f.subarray(0, f.length - 1)])).rejects.toMatchObject({ code: 'sandbox_error' });
    await expect(frames([f], 50)).rejects.toMatchObject({ code: 'sandbox_error' });
    const compressed = Buffer.from(f);
    compressed[0] = 1;
    await expect(frames([compressed])).rejects.toMatchObject({ code: 'sandbox_error' });
  });
});
