import { eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { loginThrottle } from '@/db/schema';

export interface ThrottleLimits {
  maxFailures: number;
  windowMs: number;
  /**
   * Progressive delay: from the maxFailures-th failure on, each failure locks the key for
   * baseMs doubled per further failure, at most maxMs. Without it the lock lasts one window.
   */
  delay?: { baseMs: number; maxMs: number };
}

/** Remaining lock time in ms for a key, or 0 when attempts are allowed. */
export async function lockedFor(db: AppDb, key: string, now = new Date()): Promise<number> {
  const [row] = await db.select().from(loginThrottle).where(eq(loginThrottle.key, key));
  if (!row?.lockedUntil) return 0;
  return Math.max(0, row.lockedUntil.getTime() - now.getTime());
}

/** Counts one failure in a fixed window and locks the key at the limit. Atomic upsert; returns the count and when its window began. */
export async function recordFailure(db: AppDb, key: string, limits: ThrottleLimits, now = new Date()): Promise<{ failures: number; windowStartedAt: Date }> {
  // Explicit casts: raw SQL parameters carry no type, and the two drivers serialise Dates differently.
  const windowStart = sql`${new Date(now.getTime() - limits.windowMs).toISOString()}::timestamptz`;
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  const failures = sql`(case when ${loginThrottle.windowStartedAt} < ${windowStart} then 1 else ${loginThrottle.failures} + 1 end)`;
  const lockMs = limits.delay
    ? sql`least(${limits.delay.baseMs}::float8 * power(2, least(greatest(${failures} - ${limits.maxFailures}::int, 0), 40)), ${limits.delay.maxMs}::float8)`
    : sql`${limits.windowMs}::float8`;
  const firstLock = new Date(now.getTime() + (limits.delay ? Math.min(limits.delay.baseMs, limits.delay.maxMs) : limits.windowMs));
  const [row] = await db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStartedAt: now, lockedUntil: limits.maxFailures <= 1 ? firstLock : null })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures,
        windowStartedAt: sql`case when ${loginThrottle.windowStartedAt} < ${windowStart} then ${nowSql} else ${loginThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when ${failures} >= ${limits.maxFailures}::int then ${nowSql} + (${lockMs} * interval '1 millisecond') else ${loginThrottle.lockedUntil} end`,
      },
    })
    .returning({ failures: loginThrottle.failures, windowStartedAt: loginThrottle.windowStartedAt });
  return row;
}

export async function clearFailures(db: AppDb, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}

/** A client that signed in to an account before: it is never locked out by failures from elsewhere. */
export async function isKnownClient(db: AppDb, key: string): Promise<boolean> {
  const [row] = await db.select({ key: loginThrottle.key }).from(loginThrottle).where(eq(loginThrottle.key, key));
  return !!row;
}

export async function rememberClient(db: AppDb, key: string, now = new Date()): Promise<void> {
  await db
    .insert(loginThrottle)
    .values({ key, failures: 0, windowStartedAt: now, lockedUntil: null })
    .onConflictDoUpdate({ target: loginThrottle.key, set: { windowStartedAt: sql`${now.toISOString()}::timestamptz` } });
}
