import { encode } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import { SessionDecoder } from './session-tokens';

const secret = 'test-secret-of-some-length-0123456789';
const cookie = (sub: string, maxAge = 3600) => encode({ token: { sub, authAt: 1234 }, secret, maxAge });

describe('SessionDecoder', () => {
  it('decrypts a cookie once and serves its claims from memory after', async () => {
    const d = new SessionDecoder();
    const raw = await cookie('u1');
    expect(await d.decode(raw, secret)).toMatchObject({ sub: 'u1', authAt: 1234 });
    expect(await d.decode(raw, secret)).toMatchObject({ sub: 'u1' });
    expect(d.decodes).toBe(1);
  });

  it('keeps nothing for a cookie that does not decrypt, nor across secrets', async () => {
    const d = new SessionDecoder();
    const raw = await cookie('u1');
    expect(await d.decode(raw, 'another-secret-of-some-length-000000')).toBeNull();
    expect(await d.decode('garbage', secret)).toBeNull();
    expect(d.size).toBe(0);
    expect(await d.decode(raw, secret)).toMatchObject({ sub: 'u1' });
    expect(await d.decode(raw, 'another-secret-of-some-length-000000')).toBeNull();
  });

  it("refuses a cached cookie once the token's own expiry has passed", async () => {
    let now = Date.now();
    const d = new SessionDecoder({ ttlMs: 10 * 60_000, now: () => now });
    const raw = await cookie('u1', 60);
    expect(await d.decode(raw, secret)).not.toBeNull();
    now += 61_000;
    expect(await d.decode(raw, secret)).toBeNull();
  });

  it('is bounded', async () => {
    const d = new SessionDecoder({ maxEntries: 3 });
    for (let i = 0; i < 6; i++) await d.decode(await cookie(`u${i}`), secret);
    expect(d.size).toBe(3);
  });
});
