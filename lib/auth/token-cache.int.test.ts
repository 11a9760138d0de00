// The token cache on the request path: a revoked token is refused on the very next request of this
// replica and, once the notice arrives, of another; a user change drops that user's tokens; expiry
// is checked on every use; and an entry is trusted only for its short lifetime.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { type Actor, ROLE_PERMISSIONS, systemActor } from '@/lib/auth';
import { TokenCache } from '@/lib/auth/token-cache';
import { hashToken, revokeToken } from '@/lib/auth/tokens';
import { resetPassword, updateUser } from '@/lib/auth/users';
import type { Operation } from '@/lib/http/operation';
import { route } from '@/lib/http/route';
import { type Services, setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';

let ts: TestServices;
let s: Services;
const system: Actor = { ...systemActor, permissions: ROLE_PERMISSIONS.owner };
let n = 0;

const newToken = async (permissions: ('instance.read' | 'tokens.manage')[] = ['instance.read', 'tokens.manage']) =>
  apiUser(s, { email: `tc${++n}-${Date.now()}@example.test`, role: 'admin', tokenName: `t${n}`, permissions });

async function call(op: Operation, token: string, method: string, url: string, params?: Record<string, string>) {
  const res = await route(op)(new Request(`http://localhost${url}`, { method, headers: { authorization: `Bearer ${token}` } }), {
    params: Promise.resolve(params ?? {}),
  });
  return { status: res.status, text: await res.text() };
}

const tokenId = async (token: string) =>
  (
    await s.database.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashToken(token)))
  )[0].id;

beforeAll(async () => {
  ts = await startTestServices({ worker: false });
  s = ts.services;
  setServices(Promise.resolve(s));
}, 60_000);
afterAll(async () => {
  await ts?.stop();
});

describe('token cache', () => {
  it('refuses a revoked token on the next request of this replica', async () => {
    const { token } = await newToken();
    expect((await call(ops.me as Operation, token, 'GET', '/api/v1/me')).status).toBe(200);
    expect((await call(ops.me as Operation, token, 'GET', '/api/v1/me')).status).toBe(200);
    expect(s.tokens.size).toBeGreaterThan(0);
    const id = await tokenId(token);
    expect((await call(ops.revokeToken as Operation, token, 'DELETE', `/api/v1/tokens/${id}`, { id })).status).toBe(200);
    const next = await call(ops.me as Operation, token, 'GET', '/api/v1/me');
    expect(next.status).toBe(401);
    expect(next.text).toContain('revoked');
  });

  it('a revocation or a password reset made by this process is in force once the call returns, whatever the lifetime', async () => {
    const cache = new TokenCache(s.database, { ttlMs: 3_600_000 });
    await cache.start();
    try {
      const a = await newToken();
      const b = await newToken();
      await cache.resolve(a.token);
      await cache.resolve(b.token);
      await revokeToken(s.database.db, a.actor, await tokenId(a.token));
      await expect(cache.resolve(a.token)).rejects.toMatchObject({ code: 'unauthenticated' });
      await resetPassword(s.database.db, system, b.actor.userId!, 'another long enough password');
      await expect(cache.resolve(b.token)).rejects.toMatchObject({ code: 'unauthenticated' });
    } finally {
      await cache.stop();
    }
  });

  it('another replica refuses it once the notice arrives; a user change drops that user’s tokens', async () => {
    const replica = new TokenCache(s.database, { ttlMs: 3_600_000, hearLocal: false });
    await replica.start();
    try {
      const a = await newToken();
      const b = await newToken();
      await replica.resolve(a.token);
      await replica.resolve(b.token);
      // Revoked through the lib, as another replica would: only the notice tells this cache.
      await revokeToken(s.database.db, a.actor, await tokenId(a.token));
      await waitFor(
        async () =>
          (await replica.resolve(a.token).then(
            () => false,
            (e) => e.code === 'unauthenticated',
          )) || undefined,
        'the revocation notice',
      );
      await updateUser(s.database.db, system, b.actor.userId!, { disabled: true });
      await waitFor(
        async () =>
          (await replica.resolve(b.token).then(
            () => false,
            (e) => e.code === 'unauthenticated',
          )) || undefined,
        'the user notice',
      );
    } finally {
      await replica.stop();
    }
  });

  it('trusts an entry for its lifetime only, and checks expiry on every use', async () => {
    let now = Date.now();
    const cache = new TokenCache(s.database, { ttlMs: 2000, now: () => now });
    const { token } = await newToken();
    expect([...(await cache.resolve(token)).permissions].sort()).toEqual(['instance.read', 'tokens.manage']);
    // A change that sends no notice is seen once the entry's lifetime is over, not before.
    await s.database.db
      .update(apiTokens)
      .set({ permissions: ['instance.read'] })
      .where(eq(apiTokens.tokenHash, hashToken(token)));
    expect([...(await cache.resolve(token)).permissions].sort()).toEqual(['instance.read', 'tokens.manage']);
    now += 2001;
    expect([...(await cache.resolve(token)).permissions]).toEqual(['instance.read']);
    // The caller may trim what it gets (scoped tokens do) without touching the kept entry.
    (await cache.resolve(token)).permissions.clear();
    expect([...(await cache.resolve(token)).permissions]).toEqual(['instance.read']);
    const row = (
      await s.database.db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.tokenHash, hashToken(token)))
    )[0];
    now = row.expiresAt!.getTime() - 1000;
    await cache.resolve(token);
    now += 1000;
    await expect(cache.resolve(token)).rejects.toMatchObject({ code: 'unauthenticated', message: expect.stringContaining('expired') });
  });
});
