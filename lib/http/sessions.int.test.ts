// The session edge: the user cache and its invalidation, the absolute session lifetime, changing
// one's own password, and the per-user rate limit of the operation contract, through both doors.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { type Actor, ROLE_PERMISSIONS, type Role, systemActor } from '@/lib/auth';
import { UserCache } from '@/lib/auth/user-cache';
import { createUser, updateUser } from '@/lib/auth/users';
import { type Services, setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { sessionCookieFor } from '@/test/helpers/session';
import { action, createActionClient } from './action';
import type { Operation } from './operation';
import { route } from './route';

let ts: TestServices;
let s: Services;
const pw = 'correct horse battery staple';
const system: Actor = { ...systemActor, permissions: ROLE_PERMISSIONS.owner };
let n = 0;
const newUser = async (role: Role = 'viewer') =>
  (await createUser(s.database.db, system, { email: `s${++n}-${Date.now()}@example.test`, name: 'S', role, password: pw })).id;

async function call(op: Operation, cookie: string, method: string, url: string, body?: unknown, params?: Record<string, string>) {
  const res = await route(op)(
    new Request(`http://localhost${url}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params ?? {}) },
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
}
const viaAction = (op: Operation, cookie: string) =>
  action(op as never, createActionClient({ request: async () => ({ cookie, ip: '127.0.0.1', userAgent: 'test' }), services: async () => s }));

let ownerCookie: string;

beforeAll(async () => {
  ts = await startTestServices({ worker: false });
  s = ts.services;
  setServices(Promise.resolve(s));
  ownerCookie = await sessionCookieFor(s.authSecret, await newUser('owner'));
});
afterAll(async () => ts?.stop());

describe('the session user cache', () => {
  it("refuses a disabled user's very next request", async () => {
    const id = await newUser('operator');
    const cookie = await sessionCookieFor(s.authSecret, id);
    expect((await call(ops.me as Operation, cookie, 'GET', '/api/v1/me')).status).toBe(200);
    expect((await call(ops.updateUser as Operation, ownerCookie, 'PATCH', `/api/v1/users/${id}`, { disabled: true }, { id })).status).toBe(200);
    expect((await call(ops.me as Operation, cookie, 'GET', '/api/v1/me')).status).toBe(401);
  });

  it('serves a changed role at once', async () => {
    const id = await newUser('admin');
    const cookie = await sessionCookieFor(s.authSecret, id);
    expect((await call(ops.me as Operation, cookie, 'GET', '/api/v1/me')).json.role).toBe('admin');
    const a = await viaAction(ops.updateUser as Operation, ownerCookie)({ params: { id }, body: { role: 'viewer' } } as never);
    expect(a.serverError).toBeUndefined();
    // A role change ends the sessions, like a disable: the old cookie is refused.
    expect((await call(ops.me as Operation, cookie, 'GET', '/api/v1/me')).status).toBe(401);
  });

  it('hears of a change made by another replica', async () => {
    const id = await newUser('viewer');
    const replica = new UserCache(s.database);
    await replica.start();
    try {
      expect((await replica.get(id))?.disabled).toBe(false);
      // Written straight to the database, as another replica would: only the notice tells this one.
      await updateUser(s.database.db, system, id, { disabled: true });
      await waitFor(async () => (await replica.get(id))?.disabled, 'the notice to reach the other replica');
    } finally {
      await replica.stop();
    }
  });
});

describe('session lifetime', () => {
  it('ends a session at SKILLDOCK_SESSION_MAX_AGE however often it was refreshed', async () => {
    const id = await newUser('viewer');
    const maxAgeMs = s.config.SKILLDOCK_SESSION_MAX_AGE * 1000;
    // An account older than the sessions tried here, whose sessions were never ended.
    await s.database.db
      .update(users)
      .set({ sessionsValidAfter: new Date(Date.now() - 2 * maxAgeMs) })
      .where(eq(users.id, id));
    expect((await call(ops.me as Operation, await sessionCookieFor(s.authSecret, id, Date.now() - maxAgeMs + 60_000), 'GET', '/api/v1/me')).status).toBe(200);
    const old = await call(ops.me as Operation, await sessionCookieFor(s.authSecret, id, Date.now() - maxAgeMs - 1000), 'GET', '/api/v1/me');
    expect(old.status).toBe(401);
    expect(old.json.error.message).toMatch(/maximum age/);
  });
});

describe('changing your own password', () => {
  it('needs the current password, ends your sessions, keeps your API tokens, and is audited', async () => {
    const { actor, token } = await apiUser(s, { email: `own${Date.now()}@example.test`, role: 'viewer', tokenName: 'ci', permissions: ['instance.read'] });
    const cookie = await sessionCookieFor(s.authSecret, actor.userId!, Date.now() + 1);
    expect((await call(ops.me as Operation, cookie, 'GET', '/api/v1/me')).status).toBe(200);
    const wrong = await call(ops.changeOwnPassword as Operation, cookie, 'POST', '/api/v1/me/password', {
      currentPassword: 'not my password',
      newPassword: 'a brand new password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.issues).toEqual([{ path: 'currentPassword', message: 'Wrong password' }]);
    const ok = await viaAction(
      ops.changeOwnPassword as Operation,
      cookie,
    )({
      body: { currentPassword: 'a long enough password', newPassword: 'a brand new password' },
    } as never);
    expect(ok.serverError).toBeUndefined();
    expect((await call(ops.me as Operation, cookie, 'GET', '/api/v1/me')).status).toBe(401);
    const viaToken = await route(ops.me)(new Request('http://localhost/api/v1/me', { headers: { authorization: `Bearer ${token}` } }));
    expect(viaToken.status).toBe(200);
    const rows = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'user.change_password'));
    expect(rows.map((r) => [r.targetId, r.after])).toEqual([[actor.userId, { password: '***', sessionsEnded: true }]]);
  });

  it('is refused to an API token', async () => {
    const { token } = await apiUser(s, { email: `tok${Date.now()}@example.test`, role: 'admin', tokenName: 'ci', permissions: ['instance.read'] });
    const res = await route(ops.changeOwnPassword)(
      new Request('http://localhost/api/v1/me/password', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ currentPassword: 'a long enough password', newPassword: 'a brand new password' }),
      }),
    );
    expect(res.status).toBe(403);
  });
});

describe('per-user rate limits on costly reads', () => {
  it('refuses the third skill refresh in ten seconds with 429 and Retry-After, counting both doors', async () => {
    const cookie = await sessionCookieFor(s.authSecret, await newUser('viewer'));
    expect((await call(ops.refreshSkills as Operation, cookie, 'POST', '/api/v1/skills/refresh')).status).toBe(200);
    expect((await viaAction(ops.refreshSkills as Operation, cookie)({} as never)).serverError).toBeUndefined();
    const third = await call(ops.refreshSkills as Operation, cookie, 'POST', '/api/v1/skills/refresh');
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('rate_limited');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await viaAction(ops.refreshSkills as Operation, cookie)({} as never)).serverError).toMatchObject({ code: 'rate_limited', status: 429 });
    // Another user has a counter of their own.
    const other = await sessionCookieFor(s.authSecret, await newUser('viewer'));
    expect((await call(ops.refreshSkills as Operation, other, 'POST', '/api/v1/skills/refresh')).status).toBe(200);
  });

  it('does not limit a caller who may already start heavier work (skills.write)', async () => {
    const cookie = await sessionCookieFor(s.authSecret, await newUser('admin'));
    for (let i = 0; i < 4; i++) expect((await call(ops.refreshSkills as Operation, cookie, 'POST', '/api/v1/skills/refresh')).status).toBe(200);
  });

  it('limits only the runtime detection, not the cached runtime report', async () => {
    const cookie = await sessionCookieFor(s.authSecret, await newUser('viewer'));
    for (let i = 0; i < 3; i++) expect((await call(ops.packageRuntimes as Operation, cookie, 'GET', '/api/v1/packages/runtimes')).status).toBe(200);
    expect(ops.packageRuntimes.contract.rateLimit).toMatchObject({ max: 2, perSeconds: 10 });
    expect(ops.packageRuntimes.contract.rateLimit?.when?.({ query: { refresh: 'true' }, body: undefined, params: undefined })).toBe(true);
    expect(ops.packageRuntimes.contract.rateLimit?.when?.({ query: {}, body: undefined, params: undefined })).toBe(false);
  });
});
