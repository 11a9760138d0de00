import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Conditional-request cache of the GitHub API: the ETag and the parsed body per URL
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

/** The last rate-limit headers seen per resource and token identity, shown in the UI. */
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

/** Installed GitHub-release packages: the record of what is on disk. */
export const githubPackages = pgTable('github_packages', {
  /** Canonical name (the binary's when a single binary differs from the repo name). */
  name: text('name').primaryKey(),
  repo: text('repo').notNull(),
  tag: text('tag').notNull(),
  /** Folder name under github/<name>/ (the tag, made safe). */
  version: text('version').notNull(),
  channel: text('channel').notNull().default('stable'),
  releaseId: integer('release_id'),
  publishedAt: timestamp('published_at', { withTimezone: true }),
  prerelease: boolean('prerelease').notNull().default(false),
  assetId: integer('asset_id'),
  assetName: text('asset_name').notNull(),
  assetUrl: text('asset_url').notNull(),
  assetSize: integer('asset_size').notNull(),
  sha256: text('sha256').notNull(),
  /** api_digest | sidecar | checksums_file | tofu */
  checksumSource: text('checksum_source').notNull(),
  binaries: jsonb('binaries').notNull(),
  /** Earlier versions kept on disk for one-click rollback: [{version, tag, installedAt, sha256, checksumSource}]. */
  retained: jsonb('retained').notNull().default([]),
  overrides: jsonb('overrides').notNull().default({}),
  smokeOutput: text('smoke_output'),
  installedAt: timestamp('installed_at', { withTimezone: true }).notNull(),
  installedBy: text('installed_by').notNull(),
  /** Set when recovery found the disk and the record disagreeing, or the package broken. */
  problem: text('problem'),
});

/** The asset digest seen per repository, tag and asset: a later different digest for the same tag is an alert. */
export const githubDigests = pgTable(
  'github_digests',
  {
    repo: text('repo').notNull(),
    tag: text('tag').notNull(),
    assetName: text('asset_name').notNull(),
    sha256: text('sha256').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.repo, t.tag, t.assetName] })],
);
