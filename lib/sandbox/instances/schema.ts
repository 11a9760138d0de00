import { z } from 'zod';

const ARG_MAX = 8192;

export const instanceIdParams = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}~[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, 'Not a sandbox id (expected "<config id>~<sandbox id>").'),
});

export const startInstanceInput = z.strictObject({ configId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a config id.') });
export const listInstancesQuery = z.strictObject({
  configId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a config id.')
    .optional(),
});

export const execInput = z.strictObject({
  argv: z
    .array(
      z
        .string()
        .max(ARG_MAX, `An argument is at most ${ARG_MAX} characters.`)
        .refine((a) => !a.includes('\0'), 'An argument cannot contain NUL.'),
    )
    .min(1, 'Name the program to run (argv[0]).')
    .max(256, 'At most 256 arguments.')
    .refine((a) => a[0] !== '', 'argv[0] cannot be empty.'),
  timeoutMs: z.number().int().min(100, 'At least 100 ms.').max(3_600_000, 'At most one hour.').optional(),
  stdin: z
    .string()
    .max(1024 * 1024, 'stdin is at most 1 MiB.')
    .optional(),
  shared: z
    .literal(true)
    .optional()
    .describe('Run in a sandbox that belongs to someone else (an agent or another person) on purpose: your personal variables are not given to it'),
});

export const filesQuery = z.strictObject({ path: z.string().max(1024).default('output') });
export const fileContentQuery = z.strictObject({ path: z.string().min(1, 'Name a file.').max(1024) });

export const instanceOut = z.object({
  id: z.string(),
  configId: z.string(),
  configName: z.string(),
  backend: z.enum(['docker', 'e2b', 'cube']),
  sandboxId: z.string(),
  image: z.string(),
  state: z.enum(['creating', 'running', 'paused', 'stopped', 'exited', 'unknown']),
  createdAt: z.string(),
  lastActivityAt: z.string().nullable(),
  startedBy: z.string().nullable(),
  principal: z.string().nullable().describe('Whose sandbox it is: agent:<id>, user:<id> or system; null when it was started before sandboxes had owners'),
  imageGeneration: z.number().int().nullable().describe('The skill snapshot generation it runs; null for the base image'),
  activeImageGeneration: z.number().int().nullable().describe('The generation new sandboxes of its config start from; null while there is none'),
  stale: z.boolean().describe('A newer snapshot is active; recycle to get it (next_turn configs do so at the next exec)'),
});

export const recycleOut = z.object({
  from: z.string().describe('The id the sandbox had; it no longer exists'),
  instance: instanceOut,
});

export const instanceListOut = z.object({
  items: z.array(instanceOut),
  problems: z.array(z.object({ configId: z.string(), configName: z.string(), message: z.string() })),
});

export const execOut = z.object({
  exitCode: z.number(),
  stdout: z.string(),
  stderr: z.string(),
  truncated: z.boolean(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  recycled: z
    .object({ from: z.string(), to: z.string() })
    .optional()
    .describe('Present when the command ran in a replacement: the sandbox was stale and its config recycles at the next use. Use `to` from now on.'),
});

export const fileEntryOut = z.object({
  name: z.string(),
  path: z.string(),
  type: z.enum(['file', 'dir', 'symlink', 'other']),
  size: z.number(),
  modifiedAt: z.string().nullable(),
});
export const fileListOut = z.object({ path: z.string(), entries: z.array(fileEntryOut) });
export const uploadOut = z.object({ path: z.string(), bytes: z.number() });

/** Live resource use of one sandbox. */
export const statsOut = z.object({
  cpuPercent: z.number(),
  memoryBytes: z.number(),
  memoryLimitBytes: z.number().nullable(),
  pids: z.number().nullable(),
  at: z.string(),
});
