import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sandboxConfigs } from './sandboxes';

export interface StoredBudget {
  maxSkills: number;
  maxChars: number;
}

/**
 * Agents of the gateway and their skill lists. `skills` null = the agent inherits the defaults;
 * [] = no skills; a list = exactly those names. `deny_skills` wins over any list. `revision` grows
 * with every write: an edit names the revision it started from and a stale one is refused.
 */
export const agents = pgTable(
  'agents',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    sandboxConfigId: text('sandbox_config_id').references(() => sandboxConfigs.id, { onDelete: 'set null' }),
    skills: jsonb('skills').$type<string[] | null>(),
    denySkills: jsonb('deny_skills').$type<string[]>().notNull().default([]),
    budget: jsonb('budget').$type<StoredBudget | null>(),
    /** The exec risk profile's name; null: the built-in default (balanced). */
    riskProfile: text('risk_profile'),
    /** Partial exec rules layered over the profile (e.g. one deny group off); null: none. */
    policyOverrides: jsonb('policy_overrides').$type<Record<string, unknown> | null>(),
    revision: integer('revision').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: text('created_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by').notNull(),
  },
  (t) => [index('agents_sandbox_config_idx').on(t.sandboxConfigId)],
);

/** The instance defaults, one row (id 'default'): `skills` null = unrestricted. */
export const agentDefaults = pgTable('agent_defaults', {
  id: text('id').primaryKey(),
  skills: jsonb('skills').$type<string[] | null>(),
  budget: jsonb('budget').$type<StoredBudget | null>(),
  revision: integer('revision').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: text('updated_by').notNull(),
});
