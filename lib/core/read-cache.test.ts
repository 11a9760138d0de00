import { describe, expect, it } from 'vitest';
import { JsonText, ReadCache } from './read-cache';

const page = (v: unknown) => JsonText.of(v);

describe('ReadCache', () => {
  it('serves a stored page without loading again, until invalidated', async () => {
    const c = new ReadCache<JsonText>();
    let loads = 0;
    const load = async () => page({ n: ++loads });
    expect((await c.get('a', load)).text).toBe('{"n":1}');
    expect((await c.get('a', load)).text).toBe('{"n":1}');
    c.invalidate();
    expect((await c.get('a', load)).text).toBe('{"n":2}');
  });

  it('never stores a load that started before an invalidation', async () => {
    const c = new ReadCache<JsonText>();
    let release!: (v: JsonText) => void;
    const slow = c.get('a', () => new Promise<JsonText>((r) => (release = r)));
    c.invalidate();
    release(page('old'));
    expect((await slow).text).toBe('"old"');
    expect((await c.get('a', async () => page('new'))).text).toBe('"new"');
  });

  it('shares one load between concurrent misses of a key', async () => {
    const c = new ReadCache<JsonText>();
    let loads = 0;
    const load = async () => page(++loads);
    const [a, b] = await Promise.all([c.get('k', load), c.get('k', load)]);
    expect([a.text, b.text, loads]).toEqual(['1', '1', 1]);
  });

  it('is bounded by entries and bytes, least recently used out first', async () => {
    const c = new ReadCache<JsonText>({ maxEntries: 3, maxBytes: 40 });
    for (const k of ['a', 'b', 'c']) await c.get(k, async () => page(k));
    await c.get('a', async () => page('reloaded'));
    await c.get('d', async () => page('d'));
    expect(c.size).toBe(3);
    expect((await c.get('a', async () => page('x'))).text).toBe('"a"');
    expect((await c.get('b', async () => page('b2'))).text).toBe('"b2"');
    for (let i = 0; i < 20; i++) await c.get(`k${i}`, async () => page('0123456'));
    expect(c.totalBytes).toBeLessThanOrEqual(40);
    expect(c.size).toBeLessThanOrEqual(3);
  });

  it('does not keep an entry larger than a quarter of the byte bound', async () => {
    const c = new ReadCache<JsonText>({ maxBytes: 40 });
    let loads = 0;
    const big = async () => page('x'.repeat(20 + loads++));
    await c.get('big', big);
    await c.get('big', big);
    expect([loads, c.size]).toEqual([2, 0]);
  });

  it('reloads an entry older than the TTL', async () => {
    let now = 0;
    const c = new ReadCache<JsonText>({ ttlMs: 1000, now: () => now });
    let loads = 0;
    const load = async () => page(++loads);
    await c.get('a', load);
    now = 999;
    expect((await c.get('a', load)).text).toBe('1');
    now = 2000;
    expect((await c.get('a', load)).text).toBe('2');
    expect(c.totalBytes).toBe(1);
  });
});

it('recognises a JsonText made by another copy of this module', () => {
  const made = JsonText.of({ a: 1 });
  expect(JsonText.is(made)).toBe(true);
  // What a second copy of the class builds: same brand, another constructor.
  const foreign = Object.assign(Object.create(null), { [Symbol.for('skilldock.json-text')]: true, body: made.body, bytes: made.bytes });
  expect(foreign instanceof JsonText).toBe(false);
  expect(JsonText.is(foreign)).toBe(true);
  expect(JsonText.is({ body: made.body })).toBe(false);
  expect(JsonText.is(null)).toBe(false);
});
