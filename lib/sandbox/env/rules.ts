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

/**
 * Names a sandbox must never take from configuration, each with why: a value set here would change
 * what the sandbox's programs load, trust or run before any command is judged. Compared upper-cased,
 * so the lowercase forms some tools also read (`https_proxy`) are covered too.
 */
const RESERVED_GROUPS: readonly { why: string; names: readonly string[] }[] = [
  {
    why: 'it is set by the sandbox itself (identity, search path or terminal)',
    names: ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'PWD', 'OLDPWD', 'HOSTNAME', 'TERM', 'TMPDIR'],
  },
  {
    why: "it routes the sandbox's traffic through a proxy of its choosing; network egress is set in the config's network policy",
    names: ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'FTP_PROXY', 'RSYNC_PROXY', 'GIT_PROXY_COMMAND'],
  },
  {
    why: 'it replaces the certificate authorities TLS clients trust, which lets traffic be intercepted',
    names: ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'NODE_EXTRA_CA_CERTS', 'GIT_SSL_CAINFO', 'GIT_SSL_CAPATH', 'PIP_CERT'],
  },
  {
    why: 'the C library loads character-set or locale modules from the folder it names',
    names: ['GCONV_PATH', 'LOCPATH'],
  },
  {
    why: 'an interpreter reads it at start-up and runs or loads code from it',
    names: [
      'PYTHONPATH',
      'PYTHONHOME',
      'PYTHONSTARTUP',
      'PYTHONUSERBASE',
      'PERL5LIB',
      'PERL5OPT',
      'PERLLIB',
      'RUBYLIB',
      'RUBYOPT',
      'NODE_OPTIONS',
      'NODE_PATH',
      'JAVA_TOOL_OPTIONS',
      '_JAVA_OPTIONS',
      'JDK_JAVA_OPTIONS',
      'CLASSPATH',
    ],
  },
  {
    why: 'a shell reads it at start-up and runs code from it or changes how commands are split and found',
    names: ['ENV', 'BASH_ENV', 'PROMPT_COMMAND', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'IFS', 'CDPATH', 'GLOBIGNORE', 'ZDOTDIR', 'INPUTRC', 'HISTFILE'],
  },
];

// process-wide: a constant table, never written
export const RESERVED_NAMES: ReadonlyMap<string, string> = new Map(RESERVED_GROUPS.flatMap((g) => g.names.map((n) => [n, g.why] as const)));

export const RESERVED_PREFIXES: readonly { prefix: string; why: string }[] = [
  { prefix: 'LD_', why: 'the dynamic loader reads it (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, …) and loads other code into every program' },
  { prefix: 'DYLD_', why: 'the dynamic loader reads it and loads other code into every program' },
  { prefix: 'SKILLDOCK_', why: 'Skilldock sets these names itself' },
  { prefix: 'BASH_FUNC_', why: 'bash imports it as a function definition' },
];

/** Why `name` cannot be set (naming the variable), or null. Reserved names are compared case-insensitively. */
export function envNameProblem(name: string): string | null {
  if (!ENV_NAME.test(name)) return 'A name starts with a letter or "_" and has only letters, digits and "_" (at most 128).';
  const upper = name.toUpperCase();
  const why = RESERVED_NAMES.get(upper) ?? RESERVED_PREFIXES.find((p) => upper.startsWith(p.prefix))?.why;
  return why ? `${name} is reserved and cannot be configured: ${why}.` : null;
}

/** Any well-formed name: removing a var stays possible after its name became reserved. */
export const envNameToRemove = z.string().regex(ENV_NAME, 'A name starts with a letter or "_" and has only letters, digits and "_" (at most 128).');

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
export const unsetEnvInput = z.strictObject({ name: envNameToRemove });
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
    z.strictObject({ level: z.literal('personal_sandbox'), configId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), name: envNameToRemove }),
    z.strictObject({ level: z.literal('personal_skill'), skillKey, name: envNameToRemove }),
  ],
  { error: 'The level is personal_sandbox (with configId) or personal_skill (with skillKey).' },
);
export const workspaceSkillEnvInput = z.strictObject({ skillKey, name: envName, value: envValue });
export const workspaceSkillEnvUnset = z.strictObject({ skillKey, name: envNameToRemove });

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
