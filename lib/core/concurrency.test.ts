import { describe, expect, it } from 'vitest';
import { mapLimit, pipelined } from './concurrency';

const tick = () => new Promise((r) => setImmediate(r));

describe('mapLimit', () => {
  it('keeps the input order with at most `limit` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n) => {
      most = Math.max(most, ++inFlight);
      for (let i = 0; i < n; i++) await tick();
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30]);
    expect(most).toBe(2);
  });
});

describe('pipelined', () => {
  it('consumes every item once, starting them in order, with fetches overlapping the consumers', async () => {
    const events: string[] = [];
    const consumed: number[] = [];
    await pipelined(
      [0, 1, 2, 3, 4, 5, 6, 7],
      { ahead: 3, consumers: 2 },
      async (n) => {
        events.push(`fetch ${n}`);
        await tick();
        return n * 2;
      },
      async (f, n) => {
        events.push(`use ${n}`);
        expect(f).toBe(n * 2);
        for (let i = 0; i < 3; i++) await tick();
        consumed.push(n);
      },
    );
    expect([...consumed].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(events.filter((e) => e.startsWith('use')).map((e) => Number(e.slice(4)))).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // Item 3 was being fetched before item 1 was consumed: fetching runs ahead of use.
    expect(events.indexOf('fetch 3')).toBeLessThan(events.indexOf('use 1'));
  });

  it('never holds more than `ahead` fetched-but-unconsumed results beyond the consumers', async () => {
    let outstanding = 0;
    let most = 0;
    await pipelined(
      Array.from({ length: 30 }, (_, i) => i),
      { ahead: 4, consumers: 2 },
      async (n) => {
        most = Math.max(most, ++outstanding);
        await tick();
        return n;
      },
      async () => {
        for (let i = 0; i < 5; i++) await tick();
        outstanding--;
      },
    );
    expect(most).toBeLessThanOrEqual(4 + 2);
    expect(most).toBeGreaterThan(2);
    expect(outstanding).toBe(0);
  });

  it('passes a consumer failure to the caller and leaves no fetch rejection unhandled', async () => {
    const run = pipelined(
      [1, 2, 3, 4],
      { ahead: 2, consumers: 1 },
      async (n) => {
        if (n === 3) throw new Error('fetch 3 failed');
        return n;
      },
      async (n) => {
        if (n === 2) throw new Error('consume 2 failed');
      },
    );
    await expect(run).rejects.toThrow('consume 2 failed');
  });

  it('does nothing for no items', async () => {
    let called = false;
    await pipelined(
      [],
      { ahead: 2, consumers: 2 },
      async () => (called = true),
      async () => undefined,
    );
    expect(called).toBe(false);
  });
});
