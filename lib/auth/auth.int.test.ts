// test-phase: both engines. Its subject is sessions and tokens as each engine stores them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens, auditLog, users } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { authenticate as authenticateRequest } from '@/lib/http/authenticate';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { sessionCookieFor } from '@/test/helpers/session';
import { type Actor, systemActor } from './actor';
import { checkLogin, type LoginLimits } from './login';
import { ROLE_PERMISSIONS } from './permissions';
import { createToken, resolveToken, revokeToken } from './tokens';
import { createUser, resetPassword, setupFirstOwner, updateUser } from './users';

let t: TestServices;
let owner: Actor;
const limits: LoginLimits = {
  client: { maxFailures: 5, windowMs: 60_000 },
  account: { maxFailures: 3, windowMs: 60_000 },
  ip: { maxFailures: 5, windowMs: 60_000 },
};
const authenticate = (_db: unknown, email: string, password: string, ip: string) => checkLogin(t.services.database.db, { email, password, ip }, limits);
const pw = 'correct horse battery staple';

const sessionCookie = (sub: string, authAt = Date.now()) => sessionCookieFor(t.services.authSecret, sub, authAt);
const viaCookie = (cookie: string) => authenticateRequest(t.services, { authorization: null, cookie, ip: '127.0.0.1', userAgent: 'test' });
const viaToken = (token: string) => authenticateRequest(t.services, { authorization: `Bearer ${token}`, cookie: null, ip: '127.0.0.1', userAgent: 'test' });

beforeAll(async () => {
  t = await startTestServices({ worker: false });
  const u = await setupFirstOwner(t.services.database.db, { email: 'owner@example.com', name: 'Owner', password: pw });
  owner = { ...systemActor, kind: 'user', userId: u.id, email: u.email, label: u.email, role: 'owner', permissions: ROLE_PERMISSIONS.owner };
});
afterAll(async () => t?.stop());

describe('setup and users', () => {
  it('creates the first owner once only', async () => {
    await expect(setupFirstOwner(t.services.database.db, { email: 'x@example.com', name: 'X', password: pw })).rejects.toMatchObject({ code: 'setup_done' });
    expect(await t.services.database.db.select().from(users)).toHaveLength(1);
  });

  it('refuses a duplicate email and keeps the last active owner', async () => {
    await expect(createUser(t.services.database.db, owner, { email: 'owner@example.com', name: 'Dup', role: 'viewer', password: pw })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(updateUser(t.services.database.db, owner, owner.userId!, { role: 'admin' })).rejects.toMatchObject({ code: 'invalid_state' });
    await expect(updateUser(t.services.database.db, owner, owner.userId!, { disabled: true })).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('audits writes with secrets masked', async () => {
    const u = await createUser(t.services.database.db, owner, { email: 'audited@example.com', name: 'A', role: 'viewer', password: pw });
    await resetPassword(t.services.database.db, owner, u.id, 'another long password');
    const rows = await t.services.database.db.select().from(auditLog);
    const create = rows.find((r) => r.action === 'user.create' && r.targetId === u.id);
    expect(create?.actorLabel).toBe('owner@example.com');
    expect(JSON.stringify(create?.after)).not.toContain('scrypt$');
    const reset = rows.find((r) => r.action === 'user.reset_password' && r.targetId === u.id);
    expect(reset?.after).toEqual({ password: '***', apiAccessRevoked: 0 });
  });
});

describe('password reset', () => {
  it("revokes the user's API tokens with the password, and says how many in the audit", async () => {
    const u = await createUser(t.services.database.db, owner, { email: 'leaked@example.com', name: 'L', role: 'admin', password: pw });
    const actor: Actor = { ...systemActor, kind: 'user', userId: u.id, email: u.email, label: u.email, role: 'admin', permissions: ROLE_PERMISSIONS.admin };
    const { token } = await createToken(t.services.database.db, actor, { name: 'ci', permissions: ['jobs.read'], expiresInDays: 30 });
    await expect(viaToken(token)).resolves.toMatchObject({ via: 'token' });
    await resetPassword(t.services.database.db, owner, u.id, 'a fresh long password');
    await expect(viaToken(token)).rejects.toMatchObject({ code: 'unauthenticated' });
    const rows = await t.services.database.db.select().from(auditLog);
    expect(rows.find((r) => r.action === 'user.reset_password' && r.targetId === u.id)?.after).toEqual({ password: '***', apiAccessRevoked: 1 });
  });
});

describe('login', () => {
  it('throttles an account tried from many clients, for clients that never signed in to it', async () => {
    await createUser(t.services.database.db, owner, { email: 'victim@example.com', name: 'V', role: 'viewer', password: pw });
    for (let i = 0; i < 3; i++) {
      await expect(authenticate(t.services.database.db, 'victim@example.com', 'wrong', `10.9.0.${i}`)).rejects.toMatchObject({
        code: 'unauthenticated',
      });
    }
    await expect(authenticate(t.services.database.db, 'victim@example.com', pw, '10.9.0.99')).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('throttles an address that tries many accounts', async () => {
    for (let i = 0; i < 5; i++) {
      await expect(authenticate(t.services.database.db, `nobody${i}@example.com`, 'wrong', '10.8.0.1')).rejects.toMatchObject({
        code: 'unauthenticated',
      });
    }
    await expect(authenticate(t.services.database.db, 'owner@example.com', pw, '10.8.0.1')).rejects.toMatchObject({ code: 'rate_limited' });
    const ok = await authenticate(t.services.database.db, 'owner@example.com', pw, '10.8.0.2');
    expect(ok.email).toBe('owner@example.com');
  });
});

describe('sessions', () => {
  it('accepts a valid session and ends it on disable and on password reset', async () => {
    const u = await createUser(t.services.database.db, owner, { email: 'sess@example.com', name: 'S', role: 'operator', password: pw });
    const a = await viaCookie(await sessionCookie(u.id));
    expect(a.role).toBe('operator');
    expect(a.permissions.has('jobs.run')).toBe(true);
    // Through the operations, as both doors call them: the user cache of this process forgets the user at once.
    const run = (op: { run: (ctx: never) => Promise<unknown> }, params: unknown, body: unknown) =>
      op.run({ services: t.services, actor: owner, meta: { ip: null, userAgent: null }, params, body, query: undefined } as never);
    await run(ops.resetPassword, { id: u.id }, { password: 'a brand new password' });
    await expect(viaCookie(await sessionCookie(u.id, Date.now() - 60_000))).rejects.toMatchObject({ code: 'unauthenticated' });
    const fresh = await sessionCookie(u.id, Date.now() + 1);
    expect((await viaCookie(fresh)).email).toBe('sess@example.com');
    await run(ops.updateUser, { id: u.id }, { disabled: true });
    await expect(viaCookie(fresh)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('rejects a forged session cookie', async () => {
    const forged = await sessionCookieFor('x'.repeat(48), owner.userId!);
    await expect(viaCookie(forged)).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});

describe('API tokens', () => {
  it('is shown once, stored hashed, scoped, revocable', async () => {
    const { token, record } = await createToken(t.services.database.db, owner, { name: 'ci', permissions: ['jobs.read'], expiresInDays: 30 });
    expect(token).toMatch(/^sdk_[A-Za-z0-9_-]{43}$/);
    const stored = await t.services.database.db.select().from(apiTokens);
    expect(JSON.stringify(stored)).not.toContain(token);
    const a = await viaToken(token);
    expect([...a.permissions]).toEqual(['jobs.read']);
    expect(a.kind).toBe('token');
    await revokeToken(t.services.database.db, owner, record.id);
    await expect(viaToken(token)).rejects.toMatchObject({ code: 'unauthenticated', message: expect.stringMatching(/revoked/) });
  });

  it('refuses scopes beyond the creator, and expired tokens', async () => {
    const op = await createUser(t.services.database.db, owner, { email: 'op@example.com', name: 'O', role: 'operator', password: pw });
    const opActor: Actor = { ...owner, userId: op.id, email: op.email, label: op.email, role: 'operator', permissions: ROLE_PERMISSIONS.operator };
    await expect(createToken(t.services.database.db, opActor, { name: 'x', permissions: ['users.manage'], expiresInDays: 1 })).rejects.toMatchObject({
      code: 'forbidden',
    });
    const { token, record } = await createToken(t.services.database.db, opActor, { name: 'short', permissions: ['jobs.run', 'jobs.read'], expiresInDays: 1 });
    expect((await resolveToken(t.services.database.db, token)).permissions.has('jobs.run')).toBe(true);
    // A demotion narrows the token to what the role still holds.
    await updateUser(t.services.database.db, owner, op.id, { role: 'viewer' });
    expect((await resolveToken(t.services.database.db, token)).permissions.has('jobs.run')).toBe(false);
    const { eq } = await import('drizzle-orm');
    await t.services.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, record.id));
    await expect(viaToken(token)).rejects.toMatchObject({ code: 'unauthenticated', message: expect.stringMatching(/expired/) });
    await expect(viaToken('sdk_' + 'A'.repeat(43))).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});
