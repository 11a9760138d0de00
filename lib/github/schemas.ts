import { z } from 'zod';

const REPO = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?\/[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'owner/repository, e.g. cli/cli');
const TAG = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\s\0]+$/, 'a tag has no spaces');
const NAME = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/, 'an installed package name');

/** Per-package overrides, validated before they reach the picker, a glob or argv. */
export const githubOverridesInput = z.strictObject({
  matching: z.string().min(1).max(100).optional().describe('Text the asset name must contain'),
  matchingRegex: z
    .string()
    .min(1)
    .max(200)
    .refine((v) => {
      try {
        new RegExp(v);
        return true;
      } catch {
        return false;
      }
    }, 'not a valid regular expression')
    .optional(),
  assetPattern: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^/\\\0]+$/, 'a file-name pattern (no slashes)')
    .optional()
    .describe('Glob with {os}, {arch}, {version}, e.g. tool_{version}_linux_{arch}.tar.gz'),
  binaryName: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/, 'a program name')
    .optional(),
  binaryPath: z
    .string()
    .min(1)
    .max(200)
    .regex(/^(?!\/)(?!.*\.\.)[^\0]+$/, 'a relative glob inside the archive')
    .optional(),
  smokeArgs: z
    .array(
      z
        .string()
        .max(100)
        .regex(/^[^\0\n]*$/),
    )
    .max(8)
    .optional()
    .describe('Smoke-test arguments (default --version)'),
  smokeTest: z.boolean().optional(),
});

export const githubInstallParams = z.strictObject({
  repo: REPO,
  tag: TAG.optional(),
  overrides: githubOverridesInput.optional(),
  takeover: z.boolean().optional(),
});
export const githubUpdateParams = z.strictObject({ name: NAME, toTag: TAG.optional() });
export const githubRollbackParams = z.strictObject({ name: NAME, version: z.string().regex(/^[A-Za-z0-9._+-]{1,128}$/) });
export const githubUninstallParams = z.strictObject({ name: NAME });
export const githubRepairParams = z.strictObject({});
export type GithubInstallParams = z.infer<typeof githubInstallParams>;

export const githubReleasesQuery = z.strictObject({
  repo: REPO,
  limit: z.coerce.number().int().min(1).max(50).default(10),
  /** Overrides to preview (the picker's "why this asset"), as JSON. */
  assetPattern: z.string().max(200).optional(),
  binaryName: z.string().max(64).optional(),
});

/** A package's update channel. */
export const githubChannelInput = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,99}$/, 'an installed package name'),
  channel: z.enum(['stable', 'prerelease']).describe('prerelease: update checks also offer pre-releases (highest semver wins)'),
});
export type GithubChannelInput = z.infer<typeof githubChannelInput>;
