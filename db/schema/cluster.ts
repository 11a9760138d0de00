// What the replicas sharing one database need to agree on: who is alive and where, who owns each
// host-bound piece of work, which sandboxes are in use, terminal tickets and sessions, and the bytes
// a job on any replica may have to read.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** Every running replica: registered at boot, its heartbeat renewed; `address` is its internal base URL for relays. */
export const replicas = pgTable('replicas', {
  id: text('id').primaryKey(),
  hostname: text('hostname').notNull(),
  address: text('address'),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Ownership of host-bound work (a Docker engine's network enforcement, a host runtime): one holder per
 * key, renewed before `expiresAt`, taken over after it. `generation` grows on every change of holder,
 * so a holder that lost the lease can tell (a fencing token).
 */
export const hostLeases = pgTable('host_leases', {
  key: text('key').primaryKey(),
  holder: text('holder').notNull(),
  generation: bigint('generation', { mode: 'number' }).notNull().default(1),
  acquiredAt: timestamp('acquired_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Work another replica asks of a lease's holder; the holder marks it done with its answer. */
export const hostRequests = pgTable(
  'host_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    leaseKey: text('lease_key').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    ok: boolean('ok'),
    result: jsonb('result'),
  },
  (t) => [index('host_requests_pending_idx').on(t.leaseKey, t.id).where(sql`${t.doneAt} is null`)],
);

/** A sandbox in use (terminal, exec, upload, install) on some replica; the idle sweep of every replica honours it. */
export const sandboxLeases = pgTable(
  'sandbox_leases',
  {
    id: text('id').primaryKey(),
    /** The Docker container id (or the backend's sandbox id). */
    sandboxKey: text('sandbox_key').notNull(),
    holder: text('holder').notNull(),
    reason: text('reason').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sandbox_leases_sandbox_idx').on(t.sandboxKey)],
);

/** Terminal tickets by the sha256 of the ticket; spent by one atomic update. */
export const terminalTickets = pgTable(
  'terminal_tickets',
  {
    hash: text('hash').primaryKey(),
    claims: jsonb('claims').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('terminal_tickets_expiry_idx').on(t.expiresAt)],
);

/** Open terminal sessions of every replica, for the cluster-wide admin list and for relays. */
export const terminalSessions = pgTable(
  'terminal_sessions',
  {
    id: text('id').primaryKey(),
    replica: text('replica').notNull(),
    userId: text('user_id').notNull(),
    sandboxId: text('sandbox_id').notNull(),
    info: jsonb('info').notNull().default({}),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('terminal_sessions_replica_idx').on(t.replica)],
);

/** An uploaded archive waiting for its import job: its bytes are the blob `sha256`. */
export const uploads = pgTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    sha256: text('sha256').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    filename: text('filename'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('uploads_sha256_idx').on(t.sha256), index('uploads_expires_idx').on(t.expiresAt)],
);

/** Content-addressed bytes any replica can read, stored in chunks so none is ever whole in memory. */
export const blobs = pgTable('blobs', {
  sha256: text('sha256').primaryKey(),
  size: bigint('size', { mode: 'number' }).notNull(),
  chunks: integer('chunks').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const blobChunks = pgTable(
  'blob_chunks',
  {
    sha256: text('sha256').notNull(),
    idx: integer('idx').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sha256, t.idx] })],
);
