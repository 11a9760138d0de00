import { and, eq, gte, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { auditLog, users } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import { AppError } from '../core/errors';
import { type Actor, systemActor } from './actor';
import { clientKey } from './client-key';
import { dummyHash, verifyPassword } from './password';
import { clearFailures, isKnownClient, lockedFor, recordFailure, rememberClient, type ThrottleLimits } from './throttle';
import type { UserRow } from './users';

export interface LoginLimits {
  /** Per (account, client): from maxFailures on, a delay that doubles with each failure. */
  client: ThrottleLimits;
  /** Per account over all clients; never applied to a client that signed in to the account before. */
  account: ThrottleLimits;
  /** Per client over all accounts; never applied to a client known to the account being tried. */
  ip: ThrottleLimits;
}

/** The progressive delay of the (account, client) lock: 1 s after the limit, doubling, at most 15 minutes. */
export const LOGIN_DELAY = { baseMs: 1000, maxMs: 15 * 60_000 };

export interface LoginAttempt {
  email: string;
  password: string;
  ip: string | null;
  userAgent?: string | null;
}

/**
 * Refused sign-ins are one audit row per (account, client) and window, whose count grows with each
 * attempt, so a password-guessing burst cannot flood the audit log.
 */
async function auditRefused(db: AppDb, attempt: LoginAttempt, client: string, reason: string, windowMs: number, now: Date): Promise<void> {
  const account = attempt.email.toLowerCase();
  const target = `${account} from ${client}`;
  const since = new Date(now.getTime() - windowMs);
  const bumped = await db
    .update(auditLog)
    .set({
      after: sql`jsonb_set(jsonb_set(jsonb_set(coalesce(${auditLog.after}, '{}'::jsonb), '{count}', to_jsonb(coalesce((${auditLog.after}->>'count')::int, 1) + 1)), '{reason}', to_jsonb(${reason}::text)), '{lastAt}', to_jsonb(${now.toISOString()}::text))`,
    })
    .where(and(eq(auditLog.action, 'auth.login_failed'), eq(auditLog.targetType, 'login'), eq(auditLog.targetId, target), gte(auditLog.at, since)))
    .returning({ id: auditLog.id });
  if (bumped.length) return;
  const actor: Actor = { ...systemActor, label: account, ip: attempt.ip, userAgent: attempt.userAgent ?? null };
  await recordAudit(db, actor, {
    action: 'auth.login_failed',
    targetType: 'login',
    targetId: target,
    after: { email: account, client, count: 1, reason, lastAt: now.toISOString() },
  });
}

/**
 * Checks a sign-in. The lock is per (account, client), so failures from one client never lock the
 * account for another; a client that signed in to the account before ignores the account-wide and
 * per-client-address locks. A locked key is refused before any password is checked, and unknown
 * emails cost the same time as known ones.
 */
export async function checkLogin(db: AppDb, attempt: LoginAttempt, limits: LoginLimits, now = new Date()): Promise<UserRow> {
  const account = attempt.email.toLowerCase();
  const client = clientKey(attempt.ip);
  const pairKey = `pair:${account}|${client}`;
  const accountKey = `acct:${account}`;
  const ipKey = `ip:${client}`;
  const knownKey = `known:${account}|${client}`;
  const known = await isKnownClient(db, knownKey);
  const waits = [await lockedFor(db, pairKey, now)];
  if (!known) waits.push(await lockedFor(db, accountKey, now), await lockedFor(db, ipKey, now));
  const wait = Math.max(...waits);
  if (wait > 0) {
    await auditRefused(db, attempt, client, 'rate_limited', limits.client.windowMs, now);
    const seconds = Math.ceil(wait / 1000);
    throw new AppError(
      'rate_limited',
      `Too many failed sign-ins from here. Try again in ${seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} minutes`}.`,
      {
        details: { retryAfterSeconds: seconds },
      },
    );
  }
  const [u] = await db.select().from(users).where(eq(users.email, account));
  const ok = await verifyPassword(attempt.password, u?.passwordHash ?? (await dummyHash()));
  if (!u || !ok || u.disabled) {
    await recordFailure(db, pairKey, { ...limits.client, delay: limits.client.delay ?? LOGIN_DELAY }, now);
    await recordFailure(db, accountKey, limits.account, now);
    await recordFailure(db, ipKey, limits.ip, now);
    const reason = u?.disabled && ok ? 'disabled' : 'wrong_credentials';
    await auditRefused(db, attempt, client, reason, limits.client.windowMs, now);
    throw new AppError('unauthenticated', reason === 'disabled' ? 'This account is disabled. Ask an owner to enable it.' : 'Wrong email or password.');
  }
  await clearFailures(db, pairKey);
  await clearFailures(db, accountKey);
  await rememberClient(db, knownKey, now);
  await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, u.id));
  return u;
}
