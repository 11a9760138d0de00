// test-phase: both engines. Its subject is login and its limits as each engine counts them.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, loginThrottle } from '@/db/schema';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { systemActor } from './actor';
import { checkLogin, type LoginLimits } from './login';
import { ROLE_PERMISSIONS } from './permissions';
import { createUser } from './users';

let t: TestServices;
const pw = 'correct horse battery staple';
const limits: LoginLimits = {
  client: { maxFailures: 5, windowMs: 15 * 60_000 },
  account: { maxFailures: 8, windowMs: 15 * 60_000 },
  ip: { maxFailures: 30, windowMs: 15 * 60_000 },
};
const owner = { ...systemActor, kind: 'user' as const, permissions: ROLE_PERMISSIONS.owner };
const login = (email: string, password: string, ip: string, now?: Date) => checkLogin(t.services.database.db, { email, password, ip }, limits, now);
const failedRows = async (targetId: string) =>
  t.services.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'auth.login_failed'), eq(auditLog.targetId, targetId)));

beforeAll(async () => {
  t = await startTestServices({ worker: false });
  for (const email of ['boss@example.com', 'slow@example.com', 'six@example.com', 'known@example.com']) {
    await createUser(t.services.database.db, owner, { email, name: 'U', role: 'viewer', password: pw });
  }
});
afterAll(async () => t?.stop());

describe('lockout per account and client', () => {
  it('five bad passwords from client A do not stop the right password from client B', async () => {
    for (let i = 0; i < 5; i++) await expect(login('boss@example.com', 'wrong', '198.51.100.1')).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(login('boss@example.com', pw, '198.51.100.1')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(login('boss@example.com', pw, '198.51.100.2')).resolves.toMatchObject({ email: 'boss@example.com' });
  });

  it('aggregates the burst into one audit row with a count', async () => {
    const rows = await failedRows('boss@example.com from 198.51.100.1');
    expect(rows).toHaveLength(1);
    expect(rows[0].after).toMatchObject({ email: 'boss@example.com', client: '198.51.100.1', count: 6, reason: 'rate_limited' });
    expect(rows[0].ip).toBe('198.51.100.1');
  });

  it('delays progressively: 1 s after the limit, then doubling', async () => {
    const t0 = Date.now();
    const at = (ms: number) => new Date(t0 + ms);
    for (let i = 0; i < 5; i++) await expect(login('slow@example.com', 'wrong', '198.51.100.9', at(0))).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(login('slow@example.com', pw, '198.51.100.9', at(900))).rejects.toMatchObject({ code: 'rate_limited' });
    // After the first second one more try is allowed; failing it locks for two seconds.
    await expect(login('slow@example.com', 'wrong', '198.51.100.9', at(1100))).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(login('slow@example.com', pw, '198.51.100.9', at(2900))).rejects.toMatchObject({
      code: 'rate_limited',
      details: { retryAfterSeconds: 1 },
    });
    await expect(login('slow@example.com', pw, '198.51.100.9', at(3200))).resolves.toMatchObject({ email: 'slow@example.com' });
    // A success clears the client's count.
    const [row] = await t.services.database.db.select().from(loginThrottle).where(eq(loginThrottle.key, 'pair:slow@example.com|198.51.100.9'));
    expect(row).toBeUndefined();
  });

  it('throttles an IPv6 client per /64', async () => {
    for (let i = 1; i <= 5; i++) await expect(login('six@example.com', 'wrong', `2001:db8:7:7::${i}`)).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(login('six@example.com', pw, '2001:db8:7:7:abcd::1')).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(login('six@example.com', pw, '2001:db8:7:8::1')).resolves.toMatchObject({ email: 'six@example.com' });
    expect(await failedRows('six@example.com from 2001:db8:7:7::/64')).toHaveLength(1);
  });

  it('never locks the owner out from a known client, even when the account is attacked from everywhere', async () => {
    await login('known@example.com', pw, '192.0.2.10');
    for (let i = 0; i < 8; i++) await expect(login('known@example.com', 'wrong', `203.0.113.${i}`)).rejects.toMatchObject({ code: 'unauthenticated' });
    // The account-wide lock holds for a client that never signed in to it…
    await expect(login('known@example.com', pw, '203.0.113.200')).rejects.toMatchObject({ code: 'rate_limited' });
    // …and not for the known one.
    await expect(login('known@example.com', pw, '192.0.2.10')).resolves.toMatchObject({ email: 'known@example.com' });
  });
});
