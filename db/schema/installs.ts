import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

import { jobs } from './jobs';
import { sandboxConfigs } from './sandboxes';

export const INSTALL_STATES = ['installing', 'ready', 'failed', 'removing', 'disabled'] as const;
export type InstallState = (typeof INSTALL_STATES)[number];

export const IMAGE_STATES = ['building', 'active', 'superseded', 'deleted'] as const;
export type ImageState = (typeof IMAGE_STATES)[number];

export interface InstallError {
  code: string;
  message: string;
  /** The stage the install was in when it failed. */
  stage: string | null;
}

/** The ready version that keeps serving while an update runs, and after it fails. */
export interface ServedVersion {
  version: string;
  contentHash: string;
  imageGeneration: number | null;
}

export interface ImageSkill {
  skillKey: string;
  version: string;
  contentHash: string;
}

/**
 * One catalog skill installed into one sandbox config (the catalog's own store records are
 * `skill_installs`). `version`/`content_hash` are what the record installs or holds; while an
 * update runs or after it failed, `previous_ready` is the version agents still get.
 */
export const sandboxSkillInstalls = pgTable(
  'sandbox_skill_installs',
  {
    id: text('id').primaryKey(),
    configId: text('config_id')
      .notNull()
      .references(() => sandboxConfigs.id, { onDelete: 'cascade' }),
    skillKey: text('skill_key').notNull(),
    skillName: text('skill_name').notNull(),
    version: text('version').notNull(),
    contentHash: text('content_hash').notNull(),
    state: text('state', { enum: INSTALL_STATES }).notNull(),
    stage: text('stage'),
    percent: integer('percent').notNull().default(0),
    jobId: text('job_id').references(() => jobs.id, { onDelete: 'set null' }),
    /** Operator notes for the installer (given with an install or a retry). */
    notes: text('notes'),
    error: jsonb('error').$type<InstallError | null>(),
    /** The snapshot generation that holds `version`; null until it is committed. */
    imageGeneration: integer('image_generation'),
    previousReady: jsonb('previous_ready').$type<ServedVersion | null>(),
    /** The state a removal returns to when it fails before the image changed. */
    removingFrom: text('removing_from', { enum: INSTALL_STATES }),
    /** The catalog holds a newer content hash than this record. */
    updatable: boolean('updatable').notNull().default(false),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sandbox_skill_installs_config_skill_idx').on(t.configId, t.skillKey),
    index('sandbox_skill_installs_skill_idx').on(t.skillKey),
    check('sandbox_skill_installs_notes_len', sql`char_length(${t.notes}) <= 2000`),
    check('sandbox_skill_installs_percent_range', sql`${t.percent} between 0 and 100`),
  ],
);

/**
 * Every snapshot image of a config's skills, by generation (never reused). `planned_ref` is written
 * before the commit, so an image left half-made by a crash can still be found and reclaimed.
 */
export const sandboxImages = pgTable(
  'sandbox_images',
  {
    id: text('id').primaryKey(),
    configId: text('config_id')
      .notNull()
      .references(() => sandboxConfigs.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull(),
    parentGeneration: integer('parent_generation'),
    state: text('state', { enum: IMAGE_STATES }).notNull().default('building'),
    plannedRef: text('planned_ref').notNull(),
    /** The engine's image id (sha256:…), once committed. */
    imageId: text('image_id'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    layers: integer('layers'),
    skills: jsonb('skills').$type<ImageSkill[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sandbox_images_config_generation_idx').on(t.configId, t.generation),
    // At most one image serves a config.
    uniqueIndex('sandbox_images_one_active_idx').on(t.configId).where(sql`${t.state} = 'active'`),
    index('sandbox_images_state_idx').on(t.state, t.supersededAt),
  ],
);
