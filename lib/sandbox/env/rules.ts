/**
 * Env var names and values at the four levels, and the schemas their writes share (schema-only:
 * the browser imports this file).
 */
import { z } from 'zod';

export const ENV_LEVELS = ['config', 'workspace_skill', 'personal_sandbox', 'personal_skill'] as const;
export type EnvLevel = (typeof ENV_LEVELS)[number];

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
export const MAX_ENV_VALUE_BYTES = 32 * 1024;
export const MAX_ENV_PER_SCOPE = 200;

/** Names a sandbox must never take from configuration: the loader, the shell's search paths, our own. */
export const RESERVED_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'PWD',
  'OLDPWD',
  'HOSTNAME',
  'TERM',
  'IFS',
  'ENV',
  'BASH_ENV',
  'PS4',
  'PROMPT_COMMAND',
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONSTARTUP',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PERL5LIB',
  'PERL5OPT',
  'RUBYLIB',
  'RUBYOPT',
  'GCONV_PATH',
  'TMPDIR',
]);
export const RESERVED_PREFIXES = ['LD_', 'DYLD_', 'SKILLDOCK_', 'BASH_FUNC_'] as const;

/** Why `name` cannot be set, or null. Reserved names are compared case-insensitively. */
export function envNameProblem(name: string): string | null {
  if (!ENV_NAME.test(name)) return 'A name starts with a letter or "_" and has only letters, digits and "_" (at most 128).';
  const upper = name.toUpperCase();
  if (RESERVED_NAMES.has(upper)) return `${upper} is set by the sandbox itself and cannot be configured.`;
  const prefix = RESERVED_PREFIXES.find((p) => upper.startsWith(p));
  if (prefix) return `Names starting with ${prefix} are reserved.`;
  return null;
}

export const envName = z.string().superRefine((v, ctx) => {
  const p = envNameProblem(v);
  if (p) ctx.addIssue({ code: 'custom', message: p });
});

export const envValue = z
  .string()
  .refine((v) => !v.includes('\0'), { message: 'A value cannot contain a NUL character.' })
  .refine((v) => new TextEncoder().encode(v).length <= MAX_ENV_VALUE_BYTES, { message: `A value is at most ${MAX_ENV_VALUE_BYTES / 1024} KiB.` });

const skillKey = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'Not a skill key.');

/** Sets one var of a config (level config) or of a skill (level workspace_skill, with skillKey). */
export const setConfigEnvInput = z.strictObject({ name: envName, value: envValue });
export const unsetEnvInput = z.strictObject({ name: envName });
export const envNameParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a config id.'), name: envName });

/** The caller's own vars: in one sandbox config, or for one skill. */
export const personalEnvInput = z.discriminatedUnion(
  'level',
  [
    z.strictObject({ level: z.literal('personal_sandbox'), configId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), name: envName, value: envValue }),
    z.strictObject({ level: z.literal('personal_skill'), skillKey, name: envName, value: envValue }),
  ],
  { error: 'The level is personal_sandbox (with configId) or personal_skill (with skillKey).' },
);
export const personalEnvUnset = z.discriminatedUnion(
  'level',
  [
    z.strictObject({ level: z.literal('personal_sandbox'), configId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), name: envName }),
    z.strictObject({ level: z.literal('personal_skill'), skillKey, name: envName }),
  ],
  { error: 'The level is personal_sandbox (with configId) or personal_skill (with skillKey).' },
);
export const workspaceSkillEnvInput = z.strictObject({ skillKey, name: envName, value: envValue });
export const workspaceSkillEnvUnset = z.strictObject({ skillKey, name: envName });

/** One var as lists show it: never its value. */
export const envVarOut = z.object({
  level: z.enum(ENV_LEVELS),
  name: z.string(),
  configId: z.string().nullable(),
  skillKey: z.string().nullable(),
  configured: z.literal(true),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export const envListOut = z.object({ items: z.array(envVarOut) });
export type EnvVarView = z.output<typeof envVarOut>;
