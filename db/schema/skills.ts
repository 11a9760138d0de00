import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Per-skill config entries, keyed by skillKey: enabled, env values and the
 * primaryEnv apiKey sealed with the secret box (never stored or returned in plaintext), a config bag.
 */
export const skillEntries = pgTable('skill_entries', {
  skillKey: text('skill_key').primaryKey(),
  enabled: boolean('enabled'),
  /** Sealed JSON object {NAME: value}; null when no env value is set. */
  envSealed: text('env_sealed'),
  /** Names of the env values (not secret), so gating and the UI need not open the seal. */
  envNames: jsonb('env_names').$type<string[]>().notNull().default([]),
  apiKeySealed: text('api_key_sealed'),
  config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by'),
});

/** Every install of a skill version into the managed store: source, hash, verdict, actor, time. */
export const skillInstalls = pgTable(
  'skill_installs',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    version: text('version').notNull(),
    contentHash: text('content_hash').notNull(),
    /** {kind: upload|git|url|clawhub, …} with the reference used (no secrets). */
    source: jsonb('source').$type<Record<string, unknown>>().notNull(),
    verdict: text('verdict').notNull(),
    findings: jsonb('findings').$type<unknown[]>().notNull().default([]),
    registryVerdict: jsonb('registry_verdict').$type<Record<string, unknown> | null>(),
    installedBy: text('installed_by').notNull(),
    installedAt: timestamp('installed_at', { withTimezone: true }).notNull().defaultNow(),
    jobId: text('job_id'),
  },
  (t) => [index('skill_installs_slug_idx').on(t.slug, t.installedAt)],
);

/** Critical scanner findings acknowledged by an admin, per content hash; a changed skill needs a new acknowledgement. */
export const skillScanAcks = pgTable('skill_scan_acks', {
  contentHash: text('content_hash').primaryKey(),
  reason: text('reason').notNull(),
  acknowledgedBy: text('acknowledged_by').notNull(),
  acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Scanner verdicts by content hash and scanner version, so a restart does not rescan every skill
 * (the scan reads every file; it is the costly part of a catalog build). A changed skill has a new hash.
 */
export const skillScanResults = pgTable('skill_scan_results', {
  contentHash: text('content_hash').primaryKey(),
  scannerVersion: text('scanner_version').notNull(),
  verdict: text('verdict').notNull(),
  findings: jsonb('findings').$type<unknown[]>().notNull().default([]),
  filesScanned: integer('files_scanned').notNull(),
  error: text('error'),
  scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull().defaultNow(),
});
