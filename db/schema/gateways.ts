import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { agents } from './agents';

/** Where a gateway lives, without its secrets (a remote gateway's token is sealed in `token_sealed`). */
export type StoredGatewayLocation =
  | { type: 'local'; stateDir: string; cli?: string; home?: string; write?: 'auto' | 'cli' | 'file'; readOnly?: boolean }
  | { type: 'docker'; configId?: string; host?: string; container: string; stateDir: string; cli?: string }
  | { type: 'remote'; url: string };

/** What the last check of the gateway found. */
export interface StoredGatewayStatus {
  checkedAt: string;
  reachable: boolean;
  configValid: boolean | null;
  version: string | null;
  readOnly: boolean;
  error: string | null;
}

/** Per agent: in sync, or each difference with both sides' reasons. */
export interface StoredDrift {
  checkedAt: string;
  count: number;
  /** Changes a sync would make to the gateway's config and folders (a hand edit shows here). */
  pending: string[];
  agents: {
    agentId: string;
    inSync: boolean;
    differences: { skill: string; ours: { visible: boolean; why: string }; theirs: { visible: boolean; why: string } }[];
  }[];
}

export interface StoredSync {
  at: string;
  jobId: string | null;
  ok: boolean;
  changes: number;
  message: string;
}

/**
 * Agent gateways Skilldock drives (OpenClaw now; `folder` clients of `skilldock sync`). `agent_ids`
 * are the gateway's agents linked to Skilldock agents of the same id (set by adopt). `owned` records
 * what Skilldock wrote into the gateway's config, so a removal deletes only its own keys.
 */
export const gateways = pgTable(
  'gateways',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind').$type<'openclaw' | 'folder'>().notNull(),
    location: jsonb('location').$type<StoredGatewayLocation>().notNull(),
    tokenSealed: text('token_sealed'),
    agentIds: jsonb('agent_ids').$type<string[]>().notNull().default([]),
    autoSync: boolean('auto_sync').notNull().default(true),
    owned: jsonb('owned').$type<{ entries: string[]; defaults: boolean }>().notNull().default({ entries: [], defaults: false }),
    status: jsonb('status').$type<StoredGatewayStatus | null>(),
    drift: jsonb('drift').$type<StoredDrift | null>(),
    lastSync: jsonb('last_sync').$type<StoredSync | null>(),
    /** The desired-state key of the last successful sync: the watcher syncs again when it moves. */
    syncedKey: text('synced_key'),
    revision: integer('revision').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [uniqueIndex('gateways_name_idx').on(t.name)],
);

/**
 * `skilldock sync` clients as they report themselves with each request (one row per agent and
 * client): where they run, how they follow, the agent version they were last served, and how many
 * skills their last pass could not write. Nothing is registered by hand; a client an operator no
 * longer runs can be forgotten.
 */
export const folderClients = pgTable(
  'folder_clients',
  {
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    host: text('host').notNull(),
    dir: text('dir').notNull(),
    mode: text('mode').$type<'events' | 'polling' | 'once' | 'check'>().notNull(),
    pollMs: integer('poll_ms').notNull(),
    blocked: integer('blocked').notNull().default(0),
    version: text('version'),
    /** Who it authenticated as: a token's or a user's label. */
    via: text('via').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.clientId] })],
);
