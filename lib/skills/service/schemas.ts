// No Node imports: forms validate with these same schemas in the browser.
import { z } from 'zod';

export const SKILL_SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const slug = z.string().trim().max(64).regex(SKILL_SLUG, 'lowercase letters, digits and hyphens, not starting or ending with a hyphen');
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const skillId = z.string().regex(/^[0-9a-f]{16}$/, 'a skill id (16 hex characters)');
const version = z.string().regex(/^v\d{1,6}$/, 'a version such as v3');

export const STATUSES = ['ready', 'needs-setup', 'disabled', 'invalid', 'blocked'] as const;
export const SOURCES = ['workspace', 'project', 'personal', 'managed', 'bundled', 'extra'] as const;
const csv = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .max(200)
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values as [T, ...T[]])));

export const skillListQuery = z.strictObject({
  q: z.string().trim().max(200).optional().describe('Search (BM25 over name, description and body; prefix and typo tolerant)'),
  status: csv(STATUSES).optional().describe('Comma-separated statuses'),
  source: csv(SOURCES).optional().describe('Comma-separated sources'),
  eligible: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

export const skillIdParams = z.strictObject({ id: skillId });

export const skillFileQuery = z.strictObject({
  path: z.string().min(1).max(1024).describe('File path inside the skill folder'),
  version: version.optional().describe('A managed version (default: the files on disk)'),
});

export const skillEntryInput = z.strictObject({
  skillKey: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._-]+$/, 'a skill key: letters, digits, . _ -'),
  enabled: z.boolean().optional(),
  env: z
    .record(z.string().regex(ENV_NAME, 'an environment variable name: letters, digits and _, not starting with a digit'), z.string().max(8192).nullable())
    .refine((r) => Object.keys(r).length <= 100, 'at most 100 variables')
    .optional()
    .describe('Env values by name; "***" keeps the stored value, "" or null removes it'),
  apiKey: z.string().max(8192).optional().describe('Value for the skill’s primaryEnv; "***" keeps, "" removes'),
  config: z.record(z.string(), z.unknown()).optional().describe('Free-form per-skill config'),
});
export type SkillEntryInput = z.infer<typeof skillEntryInput>;

const GIT_URL = z.string().trim().min(1).max(2048);
export const importSource = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('upload'),
    uploadId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'an upload id from POST /api/v1/skills/uploads'),
    filename: z.string().trim().max(200).optional().describe('The uploaded file’s name, for the job title (set by the server from the upload)'),
  }),
  z.strictObject({
    kind: z.literal('git'),
    url: GIT_URL.describe('https:// repository URL (local paths only when an admin allows them)'),
    ref: z
      .string()
      .trim()
      .max(200)
      .regex(/^[A-Za-z0-9._/-]*$/, 'a branch, tag or commit')
      .optional(),
    subdir: z.string().trim().max(1024).optional(),
  }),
  z.strictObject({ kind: z.literal('url'), url: z.string().trim().min(1).max(2048).describe('http(s) URL of a .zip, .tar.gz or a SKILL.md') }),
  z.strictObject({
    kind: z.literal('clawhub'),
    ref: z.string().trim().min(1).max(200).describe('slug, @owner/slug or @owner/slug@version'),
    ownerHandle: z.string().max(64).optional(),
  }),
]);
export type ImportSource = z.infer<typeof importSource>;

export const importInput = z.strictObject({
  source: importSource,
  slug: slug.optional().describe('Install under this slug (default: the skill’s name)'),
  force: z.boolean().default(false).describe('Replace an installed skill of the same slug with a new version'),
  acknowledge: z
    .strictObject({ reason: z.string().trim().min(5, 'say why (at least 5 characters)').max(500) })
    .optional()
    .describe('Install despite critical scanner findings (admin, audited)'),
});
export type ImportInput = z.infer<typeof importInput>;

export const slugInput = z.strictObject({ slug });
export const rollbackInput = z.strictObject({ slug, version });
export const diffQuery = z.strictObject({ slug, a: version, b: version });
export const ackInput = z.strictObject({ id: skillId, reason: z.string().trim().min(5, 'say why (at least 5 characters)').max(500) });
export const depsInstallInput = z.strictObject({ id: skillId });
export const clawhubSearchQuery = z.strictObject({ q: z.string().trim().min(1).max(200), limit: z.coerce.number().int().min(1).max(50).default(20) });
