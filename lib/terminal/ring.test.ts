import { describe, expect, it } from 'vitest';
import { ByteRing, DEFAULT_RING_BYTES } from './ring';

const b = (s: string) => Buffer.from(s);

describe('ByteRing', () => {
  it('defaults to 1 MiB', () => {
    expect(new ByteRing().capacity).toBe(DEFAULT_RING_BYTES);
    expect(DEFAULT_RING_BYTES).toBe(1024 * 1024);
    expect(() => new ByteRing(0)).toThrow(RangeError);
  });

  it('returns the bytes after an absolute offset', () => {
    const r = new ByteRing(16);
    r.append(b('hello '));
    r.append(b('world'));
    expect(r.end).toBe(11);
    expect(r.since(0)?.toString()).toBe('hello world');
    expect(r.since(6)?.toString()).toBe('world');
    expect(r.since(11)?.toString()).toBe('');
  });

  it('wraps around and reports a gap for overwritten bytes', () => {
    const r = new ByteRing(8);
    r.append(b('abcdef'));
    r.append(b('ghijk')); // 11 bytes written, the last 8 kept: "defghijk"
    expect(r.start).toBe(3);
    expect(r.since(3)?.toString()).toBe('defghijk');
    expect(r.since(5)?.toString()).toBe('fghijk');
    expect(r.since(2)).toBe('gap');
    expect(r.since(12)).toBe('gap');
    expect(r.since(-1)).toBe('gap');
    expect(r.since(3.5)).toBe('gap');
  });

  it('keeps only the tail of a chunk larger than the ring', () => {
    const r = new ByteRing(4);
    r.append(b('xy'));
    r.append(b('0123456789'));
    expect(r.end).toBe(12);
    expect(r.start).toBe(8);
    expect(r.since(8)?.toString()).toBe('6789');
  });

  it('replays exactly once: what a reader got plus what since() returns is the whole stream', () => {
    const r = new ByteRing(160); // more than three chunks, less than the whole stream
    const all: Buffer[] = [];
    let seen = Buffer.alloc(0);
    let offset = 0;
    for (let i = 0; i < 500; i++) {
      const chunk = b(`<${i}>`.repeat((i % 7) + 1));
      all.push(chunk);
      r.append(chunk);
      if (i % 3 === 0) {
        const delta = r.since(offset);
        if (delta === 'gap') throw new Error(`gap at ${i}`);
        seen = Buffer.concat([seen, delta]);
        offset = r.end;
      }
    }
    const rest = r.since(offset);
    if (rest === 'gap') throw new Error('gap at end');
    expect(Buffer.concat([seen, rest]).equals(Buffer.concat(all))).toBe(true);
  });
});
