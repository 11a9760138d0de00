import { eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { loginThrottle } from '@/db/schema';

export interface ThrottleLimits {
  maxFailures: number;
  windowMs: number;
}

/** Remaining lock time in ms for a key, or 0 when attempts are allowed. */
export async function lockedFor(db: AppDb, key: string, now = new Date()): Promise<number> {
  const [row] = await db.select().from(loginThrottle).where(eq(loginThrottle.key, key));
  if (!row?.lockedUntil) return 0;
  return Math.max(0, row.lockedUntil.getTime() - now.getTime());
}

/** Counts one failure in a fixed window; at the limit the key is locked for one window. Atomic upsert. */
export async function recordFailure(db: AppDb, key: string, limits: ThrottleLimits, now = new Date()): Promise<void> {
  // Explicit casts: raw SQL parameters carry no type, and the two drivers serialise Dates differently.
  const windowStart = sql`${new Date(now.getTime() - limits.windowMs).toISOString()}::timestamptz`;
  const lockUntil = new Date(now.getTime() + limits.windowMs);
  const lockUntilSql = sql`${lockUntil.toISOString()}::timestamptz`;
  const nowSql = sql`${now.toISOString()}::timestamptz`;
  await db
    .insert(loginThrottle)
    .values({ key, failures: 1, windowStartedAt: now, lockedUntil: limits.maxFailures <= 1 ? lockUntil : null })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: sql`case when ${loginThrottle.windowStartedAt} < ${windowStart} then 1 else ${loginThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${loginThrottle.windowStartedAt} < ${windowStart} then ${nowSql} else ${loginThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when (case when ${loginThrottle.windowStartedAt} < ${windowStart} then 1 else ${loginThrottle.failures} + 1 end) >= ${limits.maxFailures}::int then ${lockUntilSql} else ${loginThrottle.lockedUntil} end`,
      },
    });
}

export async function clearFailures(db: AppDb, key: string): Promise<void> {
  await db.delete(loginThrottle).where(eq(loginThrottle.key, key));
}
