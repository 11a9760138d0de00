/**
 * Response shapes of the skill catalog's operations, as JSON (times are ISO strings unless noted).
 * Schema-only: the browser imports these for its types.
 */
import { z } from 'zod';
import { METADATA_BLOCKS } from '../settings/skills-settings';

export const SOURCE_KINDS = ['workspace', 'project', 'personal', 'managed', 'bundled', 'extra'] as const;
export const SKILL_STATUSES = ['ready', 'needs-setup', 'disabled', 'invalid', 'blocked'] as const;
const source = z.enum(SOURCE_KINDS);
const verdict = z.enum(['clean', 'warn', 'critical', 'error']);
const os = z.enum(['darwin', 'linux', 'win32']);

export const findingOut = z.object({
  rule: z.string(),
  severity: z.enum(['critical', 'warn', 'info']),
  file: z.string(),
  line: z.number(),
  message: z.string(),
  excerpt: z.string(),
});
export const highlightOut = z.object({ field: z.enum(['name', 'description', 'body']), text: z.string(), ranges: z.array(z.tuple([z.number(), z.number()])) });
const missingOut = z.object({
  bins: z.array(z.string()),
  anyBins: z.array(z.string()),
  env: z.array(z.string()),
  config: z.array(z.string()),
  os: z.array(os),
  files: z.array(z.string()).optional().describe("Required config files (PulseBot's requires.configs) that do not exist"),
});

export const skillSummaryOut = z.object({
  id: z.string(),
  name: z.string(),
  skillKey: z.string(),
  description: z.string(),
  emoji: z.string().nullable(),
  homepage: z.string().nullable(),
  source,
  sourceLabel: z.string(),
  group: z.string().nullable(),
  dir: z.string(),
  status: z.enum(SKILL_STATUSES),
  eligible: z.boolean(),
  disabled: z.boolean(),
  reasons: z.array(z.string()),
  missing: missingOut,
  verdict,
  findingCounts: z.object({ critical: z.number(), warn: z.number(), info: z.number() }),
  acknowledged: z.boolean(),
  diagnostics: z.number().describe('How many diagnostics SKILL.md has (the detail lists them)'),
  shadowedCount: z.number(),
  contentHash: z.string(),
  primaryEnv: z.string().nullable(),
  userInvocable: z.boolean(),
  disableModelInvocation: z.boolean(),
});

const listItemOut = skillSummaryOut.extend({ score: z.number().nullable(), terms: z.array(z.string()), highlights: z.array(highlightOut) });
const countsOut = z.object({ all: z.number(), ready: z.number(), 'needs-setup': z.number(), disabled: z.number(), invalid: z.number(), blocked: z.number() });
export const skillRootOut = z.object({ kind: source, label: z.string(), path: z.string(), precedence: z.number(), skills: z.number(), copies: z.number() });
export const rootWarningOut = z.object({ root: z.string(), path: z.string(), code: z.string(), message: z.string() });

export const skillListOut = z.object({
  version: z.number(),
  builtAt: z.string(),
  target: z.object({ id: z.string(), label: z.string(), platform: z.string() }),
  counts: countsOut,
  roots: z.array(skillRootOut),
  warnings: z.array(rootWarningOut),
  skills: z.array(listItemOut),
});

export const copyOut = z.object({
  id: z.string(),
  source,
  sourceLabel: z.string(),
  root: z.string(),
  relDir: z.string(),
  dir: z.string(),
  group: z.string().nullable(),
  contentHash: z.string(),
  valid: z.boolean(),
});
export const skillEntryOut = z.object({
  skillKey: z.string(),
  enabled: z.boolean().nullable(),
  env: z.record(z.string(), z.string()).describe('Values masked as "***"'),
  apiKey: z.string().nullable(),
  config: z.record(z.string(), z.unknown()).describe('The free-form config bag of the entry'),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});

const diagnosticOut = z.object({
  file: z.string(),
  line: z.number().optional(),
  code: z.string(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});
const installSpecOut = z.looseObject({
  kind: z.enum(['brew', 'node', 'go', 'uv', 'download']),
  label: z.string().optional(),
  bins: z.array(z.string()),
  os: z.array(os).optional(),
  packageSpec: z.string().optional(),
});
export const manifestOut = z.looseObject({
  name: z.string(),
  description: z.string(),
  license: z.string().optional(),
  compatibility: z.string().optional(),
  allowedTools: z.array(z.string()),
  userInvocable: z.boolean(),
  disableModelInvocation: z.boolean(),
  commandDispatch: z.literal('tool').optional(),
  commandTool: z.string().optional(),
  commandArgMode: z.literal('raw'),
  homepage: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).describe('The whole metadata map of SKILL.md as parsed'),
  metadataKey: z.enum(METADATA_BLOCKS).optional().describe('The metadata block the gates were read from'),
  always: z.boolean(),
  emoji: z.string().optional(),
  os: z.array(os),
  requires: z.object({
    bins: z.array(z.string()),
    anyBins: z.array(z.string()),
    env: z.array(z.string()),
    config: z.array(z.string()),
    files: z.array(z.string()).optional().describe("Config files that must exist (PulseBot's requires.configs)"),
  }),
  primaryEnv: z.string().optional(),
  skillKey: z.string(),
  install: z.array(installSpecOut),
  body: z.string(),
  bodyLine: z.number(),
});
const fileOut = z.object({ path: z.string(), size: z.number(), sha256: z.string(), mode: z.number() });
const gateStepOut = z.object({ step: z.string(), pass: z.boolean(), skipped: z.boolean().optional(), detail: z.string() });
const gatingOut = z.object({
  eligible: z.boolean(),
  disabled: z.boolean(),
  blockedByAllowlist: z.boolean(),
  missing: missingOut,
  reasons: z.array(z.string()),
  trace: z.array(gateStepOut),
});
export const scanOut = z.object({ verdict, findings: z.array(findingOut), filesScanned: z.number(), error: z.string().optional() });

export const versionInfoOut = z.object({
  version: z.string(),
  contentHash: z.string(),
  installedAt: z.number().describe('Epoch milliseconds'),
  fileCount: z.number(),
  bytes: z.number(),
  lock: z.looseObject({
    version: z.string(),
    ownerHandle: z.string().optional(),
    sourceRef: z.string().optional(),
    canonicalRef: z.string().optional(),
    registry: z.string().optional(),
  }),
  active: z.boolean(),
  present: z.boolean(),
});
const installRecordOut = z.object({
  version: z.string(),
  contentHash: z.string(),
  source: z.unknown().describe('Where the version came from (upload, git, url, clawhub) and its reference'),
  verdict: z.string(),
  installedBy: z.string(),
  installedAt: z.string(),
  jobId: z.string().nullable(),
  registryVerdict: z.unknown().optional(),
});
const managedOut = z.object({
  slug: z.string(),
  active: z.string().nullable(),
  versions: z.array(versionInfoOut),
  drift: z
    .object({ version: z.string(), drifted: z.boolean(), changed: z.array(z.string()), diskHash: z.string().nullable(), recordedHash: z.string() })
    .nullable(),
  installs: z.array(installRecordOut),
});
const shadowedOut = copyOut.extend({
  sameContent: z.boolean(),
  changes: z.object({ added: z.array(z.string()), removed: z.array(z.string()), modified: z.array(z.string()) }),
});

export const skillDetailOut = skillSummaryOut.extend({
  copy: copyOut,
  isWinner: z.boolean(),
  manifest: manifestOut,
  diagnostics: z.array(diagnosticOut),
  files: z.array(fileOut),
  gating: gatingOut,
  scan: scanOut,
  ack: z.object({ reason: z.string(), acknowledgedBy: z.string(), acknowledgedAt: z.string() }).loose().nullable(),
  winner: copyOut,
  shadowed: z.array(shadowedOut),
  entry: skillEntryOut,
  managed: managedOut.nullable(),
});

export const skillFileOut = z.object({
  path: z.string(),
  size: z.number(),
  sha256: z.string(),
  binary: z.boolean(),
  content: z.string().nullable().describe('null for a binary file'),
});

export const sarifOut = z.looseObject({
  $schema: z.string(),
  version: z.literal('2.1.0'),
  runs: z.array(
    z.looseObject({
      tool: z.looseObject({ driver: z.looseObject({ name: z.string(), rules: z.array(z.looseObject({ id: z.string() })) }) }),
      results: z.array(z.looseObject({ ruleId: z.string(), level: z.string() })),
    }),
  ),
});

export const ackOut = z.object({ id: z.string(), contentHash: z.string(), acknowledged: z.literal(true) });
export const rollbackOut = z.object({ slug: z.string(), version: z.string(), previous: z.string().describe('The version that was active before') });
export const uninstallOut = z.object({ slug: z.string(), removed: z.string().describe('The version that was active') });

export const versionDiffOut = z.object({
  a: z.string(),
  b: z.string(),
  files: z.array(
    z.object({ path: z.string(), status: z.enum(['added', 'removed', 'modified', 'unchanged']), sizeA: z.number().optional(), sizeB: z.number().optional() }),
  ),
  textDiffs: z.array(
    z.union([
      z.object({ path: z.string(), patch: z.string() }),
      z.object({ path: z.string(), binary: z.literal(true) }),
      z.object({ path: z.string(), tooLarge: z.literal(true) }),
    ]),
  ),
});

export const clawhubHitOut = z.object({
  slug: z.string(),
  displayName: z.string(),
  summary: z.string().nullable(),
  version: z.string().nullable(),
  score: z.number(),
  updatedAt: z.number().nullable(),
  ownerHandle: z.string().nullable(),
});
export const clawhubSearchOut = z.array(clawhubHitOut);

export const uploadOut = z.object({
  uploadId: z.string(),
  size: z.number(),
  sha256: z.string(),
  filename: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export const refreshSkillsOut = z.object({ version: z.number(), skills: z.number() });
