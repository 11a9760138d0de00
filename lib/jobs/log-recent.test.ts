import { describe, expect, it } from 'vitest';
import { RecentLog } from './log-recent';
import { logEvent } from './types';

const ev = (seq: number) => logEvent({ seq, at: new Date(0), stream: 'stdout', line: `line ${seq}` });

describe('recent log lines', () => {
  it('gives the lines after a cursor it covers, and none it no longer holds', () => {
    const frame = ev(11).frame.length;
    const r = new RecentLog(10, frame * 5);
    for (let s = 11; s <= 20; s++) r.append(ev(s));
    // Five frames fit: 16..20 are held, so it is complete after 15 only.
    expect(r.from).toBe(15);
    expect(r.since(14, 100)).toBeUndefined();
    expect(r.since(15, 100)?.map((e) => e.seq)).toEqual([16, 17, 18, 19, 20]);
    expect(r.since(17, 2)?.map((e) => e.seq)).toEqual([18, 19]);
    expect(r.since(20, 100)).toEqual([]);
  });

  it('hands out the very events it was given (built once, shared by every follower)', () => {
    const r = new RecentLog(0, 1 << 20);
    const e = ev(1);
    r.append(e);
    expect(r.since(0, 1)?.[0]).toBe(e);
  });

  it('keeps finding lines after dropping many from the front', () => {
    const frame = ev(10_000).frame.length;
    const r = new RecentLog(0, frame * 100);
    for (let s = 1; s <= 20_000; s++) r.append(ev(s));
    expect(r.from).toBe(19_900);
    expect(r.since(19_950, 3)?.map((e) => e.seq)).toEqual([19_951, 19_952, 19_953]);
  });
});
