// No Node imports: the Settings form validates with this same schema in the browser.
import { z } from 'zod';

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;

/** GitHub-release installs: API base (Enterprise), token, owner allowlist and the install policies. */
export const githubSettingsSchema = z.strictObject({
  apiBaseUrl: z
    .string()
    .trim()
    .max(2048)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname && !u.username && !u.password && !u.search && !u.hash;
      } catch {
        return false;
      }
    }, 'an http(s) URL such as https://api.github.com or https://ghe.example.com/api/v3')
    .default('https://api.github.com')
    .describe('GitHub API base URL (GitHub Enterprise: https://HOST/api/v3)'),
  downloadHosts: z
    .array(
      z
        .string()
        .regex(/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i, 'a host name (no scheme, port or path)'),
    )
    .max(20)
    .default([])
    .describe('Hosts release downloads may redirect to besides GitHub’s own (GitHub Enterprise storage, mirrors)'),
  allowedOwners: z
    .array(z.string().regex(OWNER, 'a GitHub user or organisation name'))
    .max(200)
    .default([])
    .describe('Only these owners may be installed from; empty allows every owner'),
  maxAssetMb: z.number().int().min(1).max(2048).default(200).describe('Largest release asset downloaded, in MB'),
  requireChecksum: z.boolean().default(false).describe('Refuse assets with no checksum source at all (instead of recording the hash on first use)'),
  retainedVersions: z.number().int().min(0).max(10).default(2).describe('Earlier versions kept for one-click rollback'),
  smokeTimeoutSeconds: z.number().int().min(1).max(120).default(10).describe('Time limit of the smoke test run before a new version goes live'),
});
export type GithubSettings = z.infer<typeof githubSettingsSchema>;
export const GITHUB_SETTINGS_DEFAULTS: GithubSettings = githubSettingsSchema.parse({});

type Shape = typeof githubSettingsSchema.shape;
/** PUT body: any subset, plus the token (`***` or absent keeps it, empty clears it). */
export const githubSettingsPatch = z.strictObject({
  ...(Object.fromEntries(
    Object.entries(githubSettingsSchema.shape).map(([k, v]) => [
      k,
      v
        .unwrap()
        .optional()
        .describe(v.description ?? k),
    ]),
  ) as {
    [K in keyof Shape]: z.ZodOptional<ReturnType<Shape[K]['unwrap']>>;
  }),
  token: z
    .string()
    .max(512)
    .regex(/^[\x21-\x7e]*$/, 'a token has no spaces or control characters')
    .optional()
    .describe('GitHub token; "***" keeps the stored one, "" removes it'),
});
export type GithubSettingsPatch = z.infer<typeof githubSettingsPatch>;

/** What the API shows: the token masked, and where the token in use comes from. */
export const githubSettingsOut = githubSettingsSchema.extend({
  token: z.string().nullable().describe('"***" when a token is stored'),
  tokenSource: z.enum(['setting', 'GITHUB_TOKEN', 'GH_TOKEN', 'none']),
});
