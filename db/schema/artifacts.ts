// What Skilldock kept of a sandbox's /workspace/output before it recycled or removed the sandbox:
// one collection per removal, one row per kept file, the bytes in the shared blob store (so every
// replica serves them). A collection outlives its sandbox and its config; retention removes it.
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const sandboxArtifactCollections = pgTable(
  'sandbox_artifact_collections',
  {
    id: text('id').primaryKey(),
    configId: text('config_id').notNull(),
    configName: text('config_name').notNull(),
    backend: text('backend', { enum: ['docker', 'e2b', 'cube'] }).notNull(),
    /** "<config id>~<sandbox id>", the id the sandbox had. */
    instanceId: text('instance_id').notNull(),
    sandboxId: text('sandbox_id').notNull(),
    /** Whose sandbox it was (`agent:<id>`, `user:<id>`, `system`); null for one started before owners were recorded. */
    principal: text('principal'),
    /** The session: the instance id of the first sandbox of a chain of recycles (its own id when it replaced none). */
    sessionId: text('session_id').notNull(),
    /** The instance that replaced the sandbox (a recycle); null for a removal. */
    replacedBy: text('replaced_by'),
    trigger: text('trigger', { enum: ['recycle', 'next_turn', 'remove', 'idle_sweep'] }).notNull(),
    status: text('status', { enum: ['collecting', 'collected', 'partial', 'empty', 'failed', 'not_supported'] }).notNull(),
    /** What was cut or skipped, or why the collection failed, in words. */
    note: text('note'),
    /** Counts of entries left out, by reason (symlink, device, too_large, byte_cap, file_cap, bad_name, ...). */
    skipped: jsonb('skipped').$type<Record<string, number>>().notNull().default({}),
    fileCount: integer('file_count').notNull().default(0),
    totalBytes: bigint('total_bytes', { mode: 'number' }).notNull().default(0),
    createdBy: text('created_by').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('sandbox_artifact_collections_config_idx').on(t.configId, t.startedAt),
    index('sandbox_artifact_collections_instance_idx').on(t.instanceId),
    index('sandbox_artifact_collections_session_idx').on(t.sessionId),
    index('sandbox_artifact_collections_replaced_idx').on(t.replacedBy),
  ],
);

export const sandboxArtifactFiles = pgTable(
  'sandbox_artifact_files',
  {
    id: text('id').primaryKey(),
    collectionId: text('collection_id')
      .notNull()
      .references(() => sandboxArtifactCollections.id, { onDelete: 'cascade' }),
    /** Relative to /workspace/output, normalised ("reports/a.txt"). */
    path: text('path').notNull(),
    /** The last path segment, searched by ?q=. */
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    mode: integer('mode').notNull().default(0o644),
    modifiedAt: timestamp('modified_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sandbox_artifact_files_path_idx').on(t.collectionId, t.path),
    index('sandbox_artifact_files_sha_idx').on(t.sha256),
    index('sandbox_artifact_files_name_idx').on(t.name),
  ],
);
