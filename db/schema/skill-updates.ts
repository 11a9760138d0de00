// Update checks of imported skills against their sources (ClawHub, git, a URL): what was last seen,
// the newer version found (scanned and diffed in staging before anything is applied) and the policy.
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** One row per managed slug whose source can be checked. */
export const skillUpdateChecks = pgTable('skill_update_checks', {
  slug: text('slug').primaryKey(),
  /** clawhub | git | url */
  kind: text('kind').notNull(),
  /** The store version (vN) the last check compared against; another active version starts afresh. */
  baseVersion: text('base_version'),
  /** What is installed, in the source's terms: a registry version, a commit, an ETag or sha256. */
  installedRef: text('installed_ref'),
  /** current | available | pinned | error | unchecked */
  status: text('status').notNull().default('unchecked'),
  /** The newest version the source offers (version / commit / tag / ETag), when it differs from the installed one. */
  latestRef: text('latest_ref'),
  /** Conditional-request validators of the last answer: {etag?, lastModified?}. */
  validators: jsonb('validators').$type<{ etag?: string; lastModified?: string }>().notNull().default({}),
  /** The staged candidate: {ref, contentHash, verdict, findings, critical, files, textDiffs, truncated}. */
  candidate: jsonb('candidate').$type<Record<string, unknown> | null>(),
  error: text('error'),
  /** off | notify | auto; null follows the skills setting for the source kind. */
  policy: text('policy'),
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  appliedAt: timestamp('applied_at', { withTimezone: true }),
  appliedBy: text('applied_by'),
});
