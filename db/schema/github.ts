import { integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Conditional-request cache of the GitHub API (GH-L01, GH-T05): the ETag and the parsed body per URL
 * and token identity (a hash, never the token), so a 304 costs nothing and reuses the stored body.
 */
export const githubHttpCache = pgTable(
  'github_http_cache',
  {
    url: text('url').notNull(),
    tokenId: text('token_id').notNull(),
    etag: text('etag').notNull(),
    body: jsonb('body').notNull(),
    /** The Link header of the stored page, for pagination on a 304. */
    link: text('link'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
    validatedAt: timestamp('validated_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.url, t.tokenId] })],
);

/** The last rate-limit headers seen per resource and token identity (GH-L04), shown in the UI. */
export const githubRateLimits = pgTable(
  'github_rate_limits',
  {
    tokenId: text('token_id').notNull(),
    resource: text('resource').notNull(),
    limit: integer('limit').notNull(),
    remaining: integer('remaining').notNull(),
    used: integer('used'),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenId, t.resource] })],
);
