// The managed skill store as every replica sees it: which versions each slug has (their files are one
// content-addressed blob, a tar of the version folder), which is active and whether it is pinned.
// Each replica's store folder is a cache rebuilt from these rows.
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, jsonb, pgSequence, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Numbers every change of a slug's row; the sum over the rows tells a replica whether anything changed. */
export const skillStoreSeq = pgSequence('skill_store_seq');

/** One row per slug ever installed; a removed slug keeps its row (removedAt) so a replica that was down removes it too. */
export const skillStoreSlugs = pgTable('skill_store_slugs', {
  slug: text('slug').primaryKey(),
  active: text('active'),
  pinned: boolean('pinned').notNull().default(false),
  pinReason: text('pin_reason'),
  removedAt: timestamp('removed_at', { withTimezone: true }),
  changedSeq: bigint('changed_seq', { mode: 'number' }).notNull().default(sql`nextval('skill_store_seq')`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A stored version: its manifest record (files, lock info) and the blob holding its folder. */
export const skillStoreVersions = pgTable(
  'skill_store_versions',
  {
    slug: text('slug').notNull(),
    version: text('version').notNull(),
    contentHash: text('content_hash').notNull(),
    blobSha256: text('blob_sha256').notNull(),
    blobSize: bigint('blob_size', { mode: 'number' }).notNull(),
    /** The VersionRecord of versions.json (lib/skills/store/manifest.ts). */
    record: jsonb('record').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.slug, t.version] }), index('skill_store_versions_blob_idx').on(t.blobSha256)],
);
