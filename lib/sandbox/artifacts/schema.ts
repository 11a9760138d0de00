// The API shapes of collected artifacts (no Node imports: the console takes its types from here).
import { z } from 'zod';

const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}~[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const instanceIdField = z.string().regex(INSTANCE_ID, 'Not a sandbox id (expected "<config id>~<sandbox id>").');

export const ARTIFACT_SORTS = ['collectedAt', '-collectedAt', 'name', '-name', 'size', '-size', 'path', '-path'] as const;

const paging = {
  q: z.string().max(200, 'Search at most 200 characters.').optional().describe('Part of a file name (case-insensitive)'),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  sort: z.enum(ARTIFACT_SORTS).default('-collectedAt'),
};

export const artifactListQuery = z.strictObject({
  ...paging,
  configId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a config id.')
    .optional(),
  sandbox: instanceIdField.optional().describe('Only what was collected from this sandbox'),
  session: instanceIdField.optional().describe('Only this session: any sandbox id of a chain of recycles names the whole chain'),
  principal: z
    .string()
    .regex(/^(system|(agent|user):[A-Za-z0-9_.@-]{1,128})$/, 'A principal is agent:<id>, user:<id> or system.')
    .optional(),
});
export const configArtifactsQuery = artifactListQuery.omit({ configId: true });
export const sandboxArtifactsQuery = z.strictObject({
  ...paging,
  scope: z.enum(['session', 'sandbox']).default('session').describe('session: every sandbox of its chain of recycles; sandbox: this id alone'),
});
export const artifactFileParams = z.strictObject({ fileId: z.uuid('Not an artifact file id.') });

export const collectionOut = z.object({
  id: z.string(),
  configId: z.string(),
  configName: z.string(),
  instanceId: z.string(),
  sandboxId: z.string(),
  sessionId: z.string().describe('The first sandbox of the chain of recycles this one belongs to'),
  principal: z.string().nullable(),
  replacedBy: z.string().nullable().describe('The sandbox that replaced it (a recycle); null for a removal'),
  trigger: z.enum(['recycle', 'next_turn', 'remove', 'idle_sweep']),
  status: z.enum(['collecting', 'collected', 'partial', 'empty', 'failed', 'not_supported']),
  note: z.string().nullable().describe('What was left out (caps, symlinks, unsafe names) or why the collection failed'),
  skipped: z.record(z.string(), z.number()),
  fileCount: z.number().int(),
  totalBytes: z.number().int(),
  createdBy: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});

export const artifactFileOut = z.object({
  id: z.string(),
  collectionId: z.string(),
  path: z.string().describe('Relative to /workspace/output'),
  name: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  modifiedAt: z.string().nullable(),
  collectedAt: z.string(),
  trigger: collectionOut.shape.trigger,
  configId: z.string(),
  configName: z.string(),
  instanceId: z.string(),
  sessionId: z.string(),
  principal: z.string().nullable(),
});

export const artifactListOut = z.object({
  items: z.array(artifactFileOut),
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  collections: z.array(collectionOut).describe('The collections in scope, newest first (at most 50), with what each left out'),
});

export type ArtifactListQuery = z.infer<typeof artifactListQuery>;
export type ArtifactList = z.infer<typeof artifactListOut>;
export type ArtifactFile = z.infer<typeof artifactFileOut>;
export type ArtifactCollection = z.infer<typeof collectionOut>;
