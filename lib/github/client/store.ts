import { and, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { githubHttpCache, githubRateLimits } from '@/db/schema';
import type { CachedResponse, EtagStore, RateLimit, RateLimitSink } from './client';

/** ETags and bodies in the database, so a restart or another replica still sends conditional requests. */
export function dbEtagStore(db: AppDb): EtagStore {
  const where = (url: string, tokenId: string) => and(eq(githubHttpCache.url, url), eq(githubHttpCache.tokenId, tokenId));
  return {
    async get(url, tokenId) {
      const [row] = await db.select().from(githubHttpCache).where(where(url, tokenId));
      return row ? { etag: row.etag, body: row.body, link: row.link } : null;
    },
    async put(url, tokenId, entry: CachedResponse) {
      const now = new Date();
      const row = { url, tokenId, etag: entry.etag, body: entry.body as object, link: entry.link, fetchedAt: now, validatedAt: now };
      await db
        .insert(githubHttpCache)
        .values(row)
        .onConflictDoUpdate({ target: [githubHttpCache.url, githubHttpCache.tokenId], set: row });
    },
    async touch(url, tokenId) {
      await db.update(githubHttpCache).set({ validatedAt: new Date() }).where(where(url, tokenId));
    },
  };
}

export function dbRateLimitSink(db: AppDb): RateLimitSink {
  return {
    async record(tokenId, r: RateLimit) {
      const row = { tokenId, resource: r.resource, limit: r.limit, remaining: r.remaining, used: r.used, resetAt: r.resetAt, seenAt: new Date() };
      await db
        .insert(githubRateLimits)
        .values(row)
        .onConflictDoUpdate({ target: [githubRateLimits.tokenId, githubRateLimits.resource], set: row });
    },
  };
}

/** The latest rate-limit state per resource for a token identity (shown on the page). */
export async function readRateLimits(db: AppDb, tokenId: string) {
  const rows = await db.select().from(githubRateLimits).where(eq(githubRateLimits.tokenId, tokenId));
  return rows.map((r) => ({
    resource: r.resource,
    limit: r.limit,
    remaining: r.remaining,
    used: r.used,
    resetAt: r.resetAt.toISOString(),
    seenAt: r.seenAt.toISOString(),
  }));
}
