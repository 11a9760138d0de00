import { z } from 'zod';
import { JOB_STATES } from '@/db/schema';
import { ALL_PERMISSIONS, ROLES } from '../auth/permissions';

/** Response shapes, used for the OpenAPI document. */
const time = z.string().describe('ISO 8601 time');
export const idParams = z.strictObject({ id: z.string().regex(/^[0-9a-f-]{36}$/, 'Not a valid id') });
/** The error part of every error response, and of a failed job (`failure`). */
export const errorOut = z.object({
  code: z.string().describe('Stable lower_snake code; each code has one HTTP status'),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  hint: z.string().optional(),
});
export const errorBody = z.object({ error: errorOut });

export const userOut = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  disabled: z.boolean(),
  createdAt: time,
  updatedAt: time,
  lastLoginAt: time.nullable(),
});

export const tokenOut = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  prefix: z.string(),
  permissions: z.array(z.enum(ALL_PERMISSIONS as [string, ...string[]])),
  expiresAt: time.nullable(),
  revokedAt: time.nullable(),
  lastUsedAt: time.nullable(),
  createdAt: time,
});

export const jobOut = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  state: z.enum(JOB_STATES),
  params: z.unknown(),
  result: z.unknown().nullable(),
  error: z.string().nullable(),
  failure: errorOut.nullable().optional(),
  progressPercent: z.number().int(),
  progressStage: z.string(),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  cancelRequested: z.boolean(),
  parentId: z.string().nullable(),
  retryOf: z.string().nullable(),
  createdByLabel: z.string(),
  logCount: z.number().int(),
  createdAt: time,
  startedAt: time.nullable(),
  finishedAt: time.nullable(),
});

export const auditOut = z.object({
  id: z.number().int(),
  at: time,
  actorUserId: z.string().nullable(),
  actorTokenId: z.string().nullable(),
  actorLabel: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});

export const logLineOut = z.object({ seq: z.number().int(), at: time, stream: z.enum(['stdout', 'stderr', 'info']), line: z.string() });

export const installedPackageOut = z.object({
  manager: z.enum(['pip', 'npm', 'apt', 'apk', 'github']),
  name: z.string(),
  version: z.string(),
  managed: z.boolean().describe('Installed through Skilldock into the runtime dir; false for base packages (read only)'),
  location: z.string().optional(),
  summary: z.string().optional(),
  realPackage: z.string().optional(),
  installedAt: z.string().optional().describe('Managed packages: when Skilldock installed or last updated it'),
  installedBy: z.string().optional(),
});

const runtimeStatusOut = z.looseObject({ name: z.string(), available: z.boolean(), path: z.string().optional(), version: z.string().optional(), reason: z.string().optional() });
const readinessOut = z.object({ ready: z.boolean(), reason: z.string().optional(), hint: z.string().optional() });

export const runtimesOut = z.looseObject({
  where: z.literal('host'),
  hostname: z.string(),
  checkedAt: time,
  durationMs: z.number(),
  runtimeDir: z.string(),
  runtimes: z.object({ python3: runtimeStatusOut, pip: runtimeStatusOut, node: runtimeStatusOut, npm: runtimeStatusOut }),
  system: z.looseObject({ manager: z.enum(['apt', 'apk']).nullable() }),
  platform: z.looseObject({ os: z.string(), arch: z.string(), libc: z.string() }),
  runtimeBin: z.object({ path: z.string(), exists: z.boolean(), onServicePath: z.boolean() }),
  binaries: z.array(runtimeStatusOut),
  managers: z.object({ pip: readinessOut, npm: readinessOut, system: readinessOut, github: readinessOut }),
  env: z.array(z.object({ name: z.string(), value: z.string(), why: z.string() })).describe('Variables every skill process gets'),
});
