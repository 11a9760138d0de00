import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
