// The input and output shapes of skill installs into sandbox configs, shared by the forms, the
// server actions, the REST routes and the OpenAPI document. No Node imports: forms use them too.
import { z } from 'zod';

export const INSTALL_STATE_VALUES = ['installing', 'ready', 'failed', 'removing', 'disabled'] as const;
export const IMAGE_STATE_VALUES = ['building', 'active', 'superseded', 'deleted'] as const;
export const ROLLOUT_VALUES = ['next_turn', 'new_session'] as const;

const configId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a config id.');
export const skillKey = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/, 'a skill key: lowercase letters, digits and hyphens');
export const installNotes = z
  .string()
  .max(2000, 'Notes are at most 2000 characters.')
  .optional()
  .describe('Notes for the installer, stored and shown with the install');

/** `/api/v1/sandbox-configs/{id}/skills/{skillKey}` */
export const installParams = z.strictObject({ id: configId, skillKey });

export const installSkillInput = z.strictObject({ skillKey, notes: installNotes });
export type InstallSkillInput = z.infer<typeof installSkillInput>;

/** Several skills into one config: one job, one maintenance sandbox, one snapshot. */
export const bulkInstallInput = z.strictObject({
  skillKeys: z.array(skillKey).min(1, 'Choose at least one skill.').max(50, 'At most 50 skills at once.'),
  notes: installNotes,
});
export type BulkInstallInput = z.infer<typeof bulkInstallInput>;

/** One skill into several configs: one parent job with a child per config. */
export const installIntoConfigsInput = z.strictObject({
  configIds: z.array(configId).min(1, 'Choose at least one sandbox config.').max(50, 'At most 50 sandbox configs at once.'),
  notes: installNotes,
});
export type InstallIntoConfigsInput = z.infer<typeof installIntoConfigsInput>;

export const skillKeyParams = z.strictObject({ skillKey });

export const retryInput = z.strictObject({ notes: installNotes });
export const updateInstallInput = z.strictObject({ notes: installNotes });
export const patchInstallInput = z.strictObject({ enabled: z.boolean().describe('false hides the installed skill from agents; it stays in the image') });

export const servedVersionOut = z.object({ version: z.string(), contentHash: z.string(), imageGeneration: z.number().int().nullable() });

export const installOut = z.object({
  id: z.string(),
  configId: z.string(),
  configName: z.string(),
  skillKey: z.string(),
  skillName: z.string(),
  version: z.string(),
  contentHash: z.string(),
  state: z.enum(INSTALL_STATE_VALUES),
  stage: z.string().nullable(),
  percent: z.number().int(),
  jobId: z.string().nullable(),
  notes: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string(), stage: z.string().nullable() }).nullable(),
  imageGeneration: z.number().int().nullable(),
  /** What agents get while an update runs or after it failed. */
  served: servedVersionOut.nullable(),
  previousReady: servedVersionOut.nullable(),
  updatable: z.boolean(),
  /** The catalog's newest version, when it differs from this record's. */
  catalogVersion: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type InstallOut = z.infer<typeof installOut>;
export const installListOut = z.object({ items: z.array(installOut) });

/** An accepted install: the record, and the job that runs it (none for a no-op). */
export const installStartedOut = z.object({ install: installOut, jobId: z.string().nullable(), noop: z.boolean() });
export const bulkStartedOut = z.object({
  jobId: z.string().nullable(),
  installs: z.array(installOut),
  /** Skills or configs refused, each with why; the rest were accepted. */
  errors: z.array(z.object({ target: z.string(), code: z.string(), message: z.string() })),
});

export const imageOut = z.object({
  id: z.string(),
  generation: z.number().int(),
  parentGeneration: z.number().int().nullable(),
  state: z.enum(IMAGE_STATE_VALUES),
  ref: z.string(),
  imageId: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  layers: z.number().int().nullable(),
  skills: z.array(z.object({ skillKey: z.string(), version: z.string(), contentHash: z.string() })),
  createdAt: z.string(),
  supersededAt: z.string().nullable(),
});

/** What a config's generations take on disk, each layer counted once however many generations share it. */
export const imageDiskOut = z.object({
  source: z.enum(['engine', 'records']).describe('engine: measured from the Docker engine; records: the recorded sizes of bundles, which share nothing'),
  generations: z.number().int().describe('Generations whose image is on the engine (or whose bundle is kept)'),
  bytes: z.number().nullable().describe("The distinct layers of those generations, the base image's included once; null when the engine could not be asked"),
  baseBytes: z.number().describe('Of bytes, the base image they are built on (on disk for the base anyway)'),
  exact: z.boolean().describe('false: some layers two generations share could not be placed and are counted once per generation'),
  perGeneration: z.array(z.object({ generation: z.number().int(), ownBytes: z.number().describe('What this generation adds over the image it stands on') })),
  error: z.string().nullable().describe('Why the engine could not be asked'),
});
export type ImageDiskOut = z.infer<typeof imageDiskOut>;

export const IMAGE_HEALTH_VALUES = ['ok', 'missing', 'no_snapshot', 'layers_high', 'bundle'] as const;
export const configImageOut = z.object({
  configId: z.string(),
  baseImage: z.string().nullable(),
  rollout: z.enum(ROLLOUT_VALUES),
  health: z.object({ state: z.enum(IMAGE_HEALTH_VALUES), message: z.string(), layerLimit: z.number().int() }),
  active: imageOut.nullable(),
  generations: z.array(imageOut),
  disk: imageDiskOut,
});
export type ConfigImageOut = z.infer<typeof configImageOut>;

export const rebuildImageInput = z.strictObject({ reason: z.string().max(200).optional() });
