import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

import { JOB_STATES } from './job-states';

export { JOB_STATES, type JobState } from './job-states';

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    state: text('state', { enum: JOB_STATES }).notNull().default('queued'),
    params: jsonb('params').notNull().default({}),
    result: jsonb('result'),
    error: text('error'),
    /** A failed job's error in the API's error shape: code, message, issues, details, hint. */
    failure: jsonb('failure').$type<{
      code: string;
      message: string;
      issues?: { path: string; message: string }[];
      details?: Record<string, unknown>;
      hint?: string;
    }>(),
    progressPercent: integer('progress_percent').notNull().default(0),
    progressStage: text('progress_stage').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(1),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    parentId: text('parent_id'),
    /** The host a host-bound job must run on (it installs into that host's runtimes); null: any replica. */
    host: text('host'),
    retryOf: text('retry_of'),
    createdBy: text('created_by'),
    createdByLabel: text('created_by_label').notNull(),
    logCount: bigint('log_count', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_claim_idx').on(t.state, t.runAfter),
    // The list's keyset order, and the retention sweep's range.
    index('jobs_created_id_idx').on(t.createdAt, t.id),
    index('jobs_finished_idx').on(t.finishedAt),
    index('jobs_kind_idx').on(t.kind),
    index('jobs_parent_idx').on(t.parentId),
  ],
);

export const jobLogs = pgTable(
  'job_logs',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    stream: text('stream', { enum: ['stdout', 'stderr', 'info'] })
      .notNull()
      .default('info'),
    line: text('line').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] })],
);
