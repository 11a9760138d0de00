import { z } from 'zod';
import { JOB_STATES } from '@/db/schema/job-states';
import { ALL_PERMISSIONS, ROLES } from '../auth/permissions';

/** Response shapes: enforced on every answer outside production, in the OpenAPI document, and the client's types. */
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
  agentIds: z.array(z.string()).nullable().describe('The agents a scoped token is limited to; null when not scoped'),
  expiresAt: time.nullable(),
  revokedAt: time.nullable(),
  lastUsedAt: time.nullable(),
  createdAt: time,
});

export const createdTokenOut = z.object({ token: z.string().describe('The secret, shown once'), record: tokenOut });

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
  host: z.string().nullable().optional().describe('The host a host-bound job runs on (an install into its runtimes); null: any replica'),
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

export const packageListOut = z.object({
  items: z.array(installedPackageOut),
  errors: z.array(z.object({ manager: z.string(), message: z.string() })).describe('Managers whose listing failed'),
});

const runtimeStatusOut = z.object({
  name: z.string(),
  available: z.boolean(),
  path: z.string().optional(),
  version: z.string().optional(),
  reason: z.string().optional().describe('Why it is unavailable, or what is odd about it'),
  managed: z.boolean().optional().describe('Installed by Skilldock into the runtime dir'),
});
const pythonStatusOut = runtimeStatusOut.extend({
  executable: z.string().optional(),
  stdlib: z.string().optional(),
  externallyManaged: z.boolean().optional().describe('PEP 668 marker present'),
});
const readinessOut = z.object({ ready: z.boolean(), reason: z.string().optional(), hint: z.string().optional() });

export const runtimesOut = z.object({
  where: z.literal('host'),
  hostname: z.string(),
  checkedAt: time,
  durationMs: z.number(),
  runtimeDir: z.string(),
  runtimes: z.object({ python3: pythonStatusOut, pip: runtimeStatusOut, node: runtimeStatusOut, npm: runtimeStatusOut }),
  system: z.object({
    manager: z.enum(['apt', 'apk']).nullable(),
    path: z.string().optional(),
    osId: z.string().optional(),
    osVersion: z.string().optional(),
    osName: z.string().optional(),
    root: z.boolean(),
    sudoInstalled: z.boolean(),
    sudo: z.boolean(),
  }),
  platform: z.object({ os: z.string(), arch: z.string(), libc: z.string(), libcVersion: z.string().optional(), loader: z.string().optional() }),
  runtimeBin: z.object({ path: z.string(), exists: z.boolean(), onServicePath: z.boolean() }),
  binaries: z.array(runtimeStatusOut),
  managers: z.object({ pip: readinessOut, npm: readinessOut, system: readinessOut, github: readinessOut }),
  env: z.array(z.object({ name: z.string(), value: z.string(), why: z.string() })).describe('Variables every skill process gets'),
});

export const meOut = z.object({
  kind: z.enum(['user', 'token', 'system']),
  userId: z.string().nullable(),
  tokenId: z.string().nullable(),
  email: z.string(),
  role: z.enum(ROLES),
  permissions: z.array(z.enum(ALL_PERMISSIONS as [string, ...string[]])).describe('Effective permissions, sorted'),
});

export const instanceOut = z.object({
  name: z.string(),
  version: z.string(),
  node: z.string(),
  platform: z.string(),
  hostname: z.string(),
  startedAt: time,
  uptimeSeconds: z.number(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), location: z.string() }),
  dataDir: z.string(),
  docker: z.object({
    endpoint: z.string(),
    reachable: z.boolean(),
    version: z.string().optional(),
    apiVersion: z.string().optional(),
    os: z.string().optional(),
    arch: z.string().optional(),
    error: z.string().optional(),
  }),
  worker: z.object({ id: z.string(), running: z.number(), concurrency: z.number(), leaseMs: z.number() }).nullable(),
  replica: z.object({ id: z.string(), installationId: z.string() }).describe('This replica among those sharing the database'),
  networkEnforcement: z.string().nullable().describe("Which replica holds this host's sandbox network enforcement (null: not enforced here)"),
});

export const jobKindOut = z.object({
  kind: z.string(),
  startable: z.boolean(),
  startPermission: z.string().nullable(),
  requiredRole: z.enum(ROLES).nullable(),
  canStart: z.boolean().describe('Whether the caller may start it'),
  retryPermission: z.string().nullable().describe('Permission a retry of a job of this kind needs; null: not retryable'),
  canRetry: z.boolean().describe('Whether the caller may retry a failed or canceled job of this kind'),
  concurrency: z.number(),
  maxAttempts: z.number(),
  resumable: z.boolean(),
});
export const jobKindsOut = z.object({ items: z.array(jobKindOut) });

export const openapiOut = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

/** A page of a newest-first list: its items and the cursor of the next page (null on the last), typed as that list's `before` takes it. */
export const pageOf = <T extends z.ZodType, C extends z.ZodType>(item: T, cursor: C) => z.object({ items: z.array(item), nextBefore: cursor.nullable() });
