import { z } from 'zod';
import { jobOut } from './schemas';

export const updateItemOut = z.object({
  source: z.string().describe('pip, npm, apt or apk'),
  name: z.string(),
  spec: z.string().describe('The spec to update or pin it with, e.g. npm:is-number'),
  current: z.string(),
  latest: z.string(),
  prerelease: z.boolean(),
  checkedAt: z.string(),
  firstSeenAt: z.string(),
  checkError: z.string().nullable().describe('The last check of this package failed; the entry was carried forward'),
  pinned: z.boolean(),
  pinReason: z.string().nullable(),
  lastJobId: z.string().nullable(),
  lastError: z.string().nullable().describe('Why the last update attempt failed'),
  lastAttemptAt: z.string().nullable(),
});

export const updatesOut = z.object({
  updates: z.array(updateItemOut),
  pins: z.array(z.object({ source: z.string(), name: z.string(), reason: z.string().nullable(), pinnedBy: z.string(), pinnedAt: z.string() })),
  sources: z.array(
    z.object({
      source: z.string(),
      checkedAt: z.string().nullable(),
      attemptedAt: z.string().nullable(),
      error: z.string().nullable(),
      stale: z.boolean(),
      packageErrors: z.number(),
    }),
  ),
  checkedAt: z.string().nullable(),
  ageSeconds: z.number().nullable(),
  ttlSeconds: z.number(),
  stale: z.boolean(),
  refreshJobId: z.string().nullable().describe('A background check started by this read because the results were stale'),
});

export const refreshOut = z.object({ job: jobOut, started: z.boolean().describe('false: a check was already queued or running; its job is returned') });
export const applyAllOut = z.object({ job: jobOut, children: z.array(jobOut) });
export const pinOut = z.object({ pinned: z.boolean() });

export const historyQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(100) });
export const historyOut = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      title: z.string(),
      state: z.string(),
      createdBy: z.string(),
      createdAt: z.string(),
      startedAt: z.string().nullable(),
      durationMs: z.number().nullable(),
    }),
  ),
});

const aliasOut = z.object({ from: z.string(), to: z.string(), hint: z.string().optional() });
export const depOut = z.object({
  spec: z.string(),
  manager: z.string(),
  name: z.string(),
  source: z.enum(['declared', 'scanned']),
  status: z.enum(['ok', 'missing', 'unknown']),
  detail: z.string(),
  importName: z.string().optional(),
  alias: aliasOut.optional().describe('import cv2 → pip:opencv-python'),
  where: z
    .array(z.object({ file: z.string(), line: z.number() }))
    .optional()
    .describe('Where the scan found it'),
  line: z.number().optional().describe('The deps: line that declares it'),
});
export const depDiagnosticOut = z.object({
  key: z.string(),
  line: z.number().optional(),
  file: z.string().optional(),
  raw: z.string().optional(),
  message: z.string(),
});

export const depsReportOut = z.object({
  declared: z
    .array(z.object({ raw: z.string(), spec: z.string(), line: z.number() }))
    .nullable()
    .describe('null: SKILL.md has no deps: key, so the scan decides'),
  excluded: z.array(z.object({ raw: z.string(), spec: z.string(), line: z.number() })),
  scanned: z.array(
    z.object({
      kind: z.string(),
      spec: z.string(),
      file: z.string(),
      line: z.number(),
      importName: z.string().nullable().optional(),
      alias: aliasOut.nullable().optional(),
    }),
  ),
  excludedScanned: z.array(z.string()),
  deps: z.array(depOut).describe('The final list (declared deps win over the scan), each ok, missing or unknown in this runtime'),
  missing: z.array(z.string()),
  diagnostics: z.array(depDiagnosticOut).describe('Entries that were rejected or ignored, with the reason and line'),
});
export const depsInstallOut = z.object({ job: jobOut, children: z.array(jobOut), skipped: z.array(z.string()), report: depsReportOut });

const checksumSource = z
  .enum(['api_digest', 'sidecar', 'checksums_file', 'tofu'])
  .describe('tofu: no checksum was published; the hash was recorded on first use (unverified)');
const githubBinaryOut = z.object({
  name: z.string(),
  libc: z.string(),
  interp: z.string().nullable(),
  machine: z.string(),
  size: z.number(),
  source: z.string(),
});
export const githubPackageOut = z.object({
  name: z.string(),
  repo: z.string(),
  tag: z.string(),
  version: z.string(),
  channel: z.string(),
  prerelease: z.boolean(),
  publishedAt: z.string().nullable(),
  assetName: z.string(),
  assetSize: z.number(),
  sha256: z.string(),
  checksumSource,
  binaries: z.array(githubBinaryOut),
  retained: z
    .array(z.object({ version: z.string(), tag: z.string(), installedAt: z.string(), sha256: z.string(), checksumSource }))
    .describe('Earlier versions kept for one-click rollback'),
  overrides: z.record(z.string(), z.unknown()).describe('Install overrides (asset pattern, binary names, …) kept for updates'),
  smokeOutput: z.string().nullable(),
  installedAt: z.string(),
  installedBy: z.string(),
  problem: z.string().nullable(),
});
const rateLimitOut = z.object({
  resource: z.string(),
  limit: z.number(),
  remaining: z.number(),
  used: z.number().nullable(),
  resetAt: z.string(),
  seenAt: z.string(),
});
const targetOut = z.looseObject({ os: z.string(), arch: z.string(), libc: z.string() });
export const githubOverviewOut = z.object({
  packages: z.array(githubPackageOut),
  target: targetOut,
  apiBase: z.string(),
  tokenConfigured: z.boolean(),
  rateLimits: z.array(rateLimitOut),
});
export const githubReleasesOut = z.object({
  repo: z.string(),
  target: targetOut,
  notModified: z.boolean(),
  releases: z.array(
    z.object({
      tag: z.string(),
      name: z.string().nullable(),
      publishedAt: z.string().nullable(),
      prerelease: z.boolean(),
      totalAssets: z.number(),
      matchingAssets: z.number(),
      chosen: z
        .looseObject({ name: z.string(), score: z.number(), reasons: z.array(z.string()) })
        .nullable()
        .describe('The asset this host would install, and why it won'),
      ranked: z.array(z.object({ name: z.string(), score: z.number(), reasons: z.array(z.string()) })),
      rejected: z.array(z.object({ name: z.string(), reason: z.string() })),
    }),
  ),
  rateLimits: z.array(rateLimitOut),
});
