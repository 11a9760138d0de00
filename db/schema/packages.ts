import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Instance settings, one JSON document per area (e.g. `runtime`), validated by its zod schema on read and write. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by'),
});

/** pip and npm packages installed through Skilldock: who and when (system packages keep theirs in system-packages.json). */
export const packageRecords = pgTable(
  'package_records',
  {
    manager: text('manager').notNull(),
    /** Canonical key: the normalised pip name or the npm name. */
    name: text('name').notNull(),
    version: text('version').notNull(),
    installedAt: timestamp('installed_at', { withTimezone: true }).notNull(),
    installedBy: text('installed_by').notNull(),
    jobId: text('job_id'),
  },
  (t) => [primaryKey({ columns: [t.manager, t.name] })],
);

/**
 * Pending updates, merged across checks (never replaced): a failed or unchanged check keeps what was
 * known. The last attempt's job and failure stay on the row so Update All results remain visible.
 */
export const packageUpdates = pgTable(
  'package_updates',
  {
    source: text('source').notNull(),
    name: text('name').notNull(),
    current: text('current').notNull(),
    latest: text('latest').notNull(),
    prerelease: boolean('prerelease').notNull().default(false),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull(),
    /** The last check of this one package failed (the entry is carried forward); null when it succeeded. */
    checkError: text('check_error'),
    lastJobId: text('last_job_id'),
    lastError: text('last_error'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.source, t.name] })],
);

/** Held packages: still checked, never offered by Update All. */
export const packagePins = pgTable(
  'package_pins',
  {
    source: text('source').notNull(),
    name: text('name').notNull(),
    reason: text('reason'),
    pinnedBy: text('pinned_by').notNull(),
    pinnedAt: timestamp('pinned_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.name] })],
);

/** The state of each update source's checks: last success, last failure. */
export const packageUpdateSources = pgTable(
  'package_update_sources',
  {
    source: text('source').primaryKey(),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    error: text('error'),
    details: jsonb('details'),
  },
  (t) => [index('package_update_sources_checked_idx').on(t.checkedAt)],
);
