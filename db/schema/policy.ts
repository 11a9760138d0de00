import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Custom exec risk profiles. The presets (locked_down, balanced, yolo) are served from code and are
 * never rows. `rules` is a full, validated rule set; `revision` grows with every write and an edit
 * naming a stale one is refused.
 */
export const riskProfiles = pgTable('risk_profiles', {
  name: text('name').primaryKey(),
  description: text('description').notNull().default(''),
  rules: jsonb('rules').$type<Record<string, unknown>>().notNull(),
  revision: integer('revision').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  createdBy: text('created_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by').notNull(),
});

/** A command an agent asked to run that needs an admin's approval; an approved one runs once. */
export const execApprovals = pgTable(
  'exec_approvals',
  {
    id: text('id').primaryKey(),
    agentId: text('agent_id').notNull(),
    command: text('command').notNull(),
    segment: text('segment').notNull().default(''),
    rule: text('rule').notNull(),
    reason: text('reason').notNull().default(''),
    state: text('state', { enum: ['pending', 'approved', 'rejected', 'expired'] })
      .notNull()
      .default('pending'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    requestedBy: text('requested_by').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
    note: text('note'),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The rest of the request the approval binds: what a use must repeat unchanged. */
    stdinSha256: text('stdin_sha256'),
    cwd: text('cwd'),
    /** The skill the exec names (its variables go into the run); null: none. */
    skill: text('skill'),
    timeoutMs: integer('timeout_ms'),
    /** The content of every script the command runs ({path, sha256}); null when not known. */
    scripts: jsonb('scripts').$type<{ path: string; sha256: string }[] | null>(),
  },
  (t) => [index('exec_approvals_state_idx').on(t.state, t.expiresAt), index('exec_approvals_agent_idx').on(t.agentId, t.requestedAt)],
);

/** Every gateway exec: its decision and, when it ran, its exit code, duration and truncation. */
export const execLog = pgTable(
  'exec_log',
  {
    id: text('id').primaryKey(),
    agentId: text('agent_id').notNull(),
    sessionId: text('session_id'),
    profile: text('profile').notNull(),
    command: text('command').notNull(),
    decision: text('decision', { enum: ['allow', 'deny', 'approval'] }).notNull(),
    rule: text('rule').notNull(),
    segment: text('segment').notNull().default(''),
    reason: text('reason').notNull().default(''),
    outcome: text('outcome', { enum: ['ran', 'denied', 'pending', 'rejected', 'expired', 'failed'] }).notNull(),
    exitCode: integer('exit_code'),
    durationMs: integer('duration_ms'),
    stdoutTruncated: boolean('stdout_truncated').notNull().default(false),
    stderrTruncated: boolean('stderr_truncated').notNull().default(false),
    approvalId: text('approval_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    by: text('by').notNull(),
  },
  (t) => [index('exec_log_agent_idx').on(t.agentId, t.at)],
);

/** Files an agent's exec wrote in its workspace, per session: the next exec judges them as scripts. */
export const execSessionFiles = pgTable(
  'exec_session_files',
  {
    agentId: text('agent_id').notNull(),
    sessionId: text('session_id').notNull(),
    path: text('path').notNull(),
    /** True once the skill scanner passed the file's content as it was after the last write. */
    scannedClean: boolean('scanned_clean').notNull().default(false),
    writtenAt: timestamp('written_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.sessionId, t.path] })],
);
