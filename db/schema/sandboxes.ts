import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Named sandbox configs (Docker, E2B, CubeSandbox). `config` holds the backend's fields without
 * secrets; the secrets (API keys) are one sealed JSON object in `secrets_sealed`.
 */
export const sandboxConfigs = pgTable('sandbox_configs', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  backend: text('backend', { enum: ['docker', 'e2b', 'cube'] }).notNull(),
  description: text('description').notNull().default(''),
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  /** Sealed JSON {field: value} of the secret fields; null when none is set. */
  secretsSealed: text('secrets_sealed'),
  /** Names of the secret fields that are set (not secret), so responses need not open the seal. */
  secretNames: jsonb('secret_names').$type<string[]>().notNull().default([]),
  /** The egress policy, normalised, with its secrets (Cube inject secrets, E2B header values) blanked. */
  networkPolicy: jsonb('network_policy')
    .$type<Record<string, unknown>>()
    .notNull()
    .default({ denyEgressByDefault: false, allowOut: [], denyOut: [], cubeRules: [], e2bHostRules: [] }),
  /** Sealed JSON {key: value} of the policy's secrets; null when none is set. */
  networkSecretsSealed: text('network_secrets_sealed'),
  /** Keys of the policy secrets that are set (not secret). */
  networkSecretNames: jsonb('network_secret_names').$type<string[]>().notNull().default([]),
  /** False until the first full check passes. */
  enabled: boolean('enabled').notNull().default(false),
  lastCheckAt: timestamp('last_check_at', { withTimezone: true }),
  lastCheckPassedAt: timestamp('last_check_passed_at', { withTimezone: true }),
  lastCheckReport: jsonb('last_check_report').$type<Record<string, unknown> | null>(),
  /** A short lock held while identity fields change; others get 423 until it is released or expires. */
  lockedBy: text('locked_by'),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  createdBy: text('created_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by').notNull(),
});

/**
 * Env vars at four levels: `config` (every sandbox of a config), `workspace_skill` (admin defaults
 * for a skill), `personal_sandbox` (a user in one config), `personal_skill` (a user running a skill).
 * Scope columns unused by a level hold '' so one unique index covers every level.
 */
export const sandboxEnvVars = pgTable(
  'sandbox_env_vars',
  {
    id: text('id').primaryKey(),
    level: text('level', { enum: ['config', 'workspace_skill', 'personal_sandbox', 'personal_skill'] }).notNull(),
    configId: text('config_id').notNull().default(''),
    userId: text('user_id').notNull().default(''),
    skillKey: text('skill_key').notNull().default(''),
    name: text('name').notNull(),
    valueSealed: text('value_sealed').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [
    uniqueIndex('sandbox_env_scope_name_idx').on(t.level, t.configId, t.userId, t.skillKey, t.name),
    index('sandbox_env_config_idx').on(t.configId),
    index('sandbox_env_user_idx').on(t.userId),
  ],
);
