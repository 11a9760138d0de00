/**
 * The sandbox config model: one zod schema per backend, shared by the console's form (validation as
 * you type), the server action, the REST route and the OpenAPI document. Schema-only: the browser
 * imports this file. Checks that need the server (SSRF guard, allowed roots on disk) live in validate.ts.
 */
import { z } from 'zod';
import { networkPolicySchema } from '../../network/policy/schema';
import { MAX_ENV_PER_SCOPE, setConfigEnvInput } from '../env/rules';
import { imageRefProblem } from './image-ref';

export const SANDBOX_BACKENDS = ['docker', 'e2b', 'cube'] as const;
export type SandboxBackend = (typeof SANDBOX_BACKENDS)[number];

/** Shown instead of a stored secret; sent back, it keeps the stored value. */
export const SECRET_MASK = '***';

/** Fields sealed at rest and returned as "***". */
export const SECRET_FIELDS: Record<SandboxBackend, readonly string[]> = { docker: [], e2b: ['apiKey'], cube: ['apiKey'] };

/** Fields that say which engine or cluster a config talks to: frozen while anything uses the config. */
export const IDENTITY_FIELDS: Record<SandboxBackend, readonly string[]> = {
  docker: ['host', 'tlsCertPath', 'allowPrivateEndpoints'],
  e2b: ['apiUrl', 'apiKey', 'domain', 'proxyUrl', 'allowPrivateEndpoints'],
  cube: ['apiUrl', 'apiKey', 'domain', 'proxyUrl', 'allowPrivateEndpoints'],
};

const ABS_PATH = /^\/[A-Za-z0-9._@+=,/-]{0,4095}$/;
const hasDotDot = (p: string) => p.split('/').some((s) => s === '..' || s === '.');
const absPath = (what: string) =>
  z
    .string()
    .max(4096)
    .refine((p) => p === '' || (ABS_PATH.test(p) && !hasDotDot(p)), {
      message: `${what} must be an absolute path without "." or ".." segments (letters, digits and ._@+=,- only).`,
    });

const UNIX_HOST = /^unix:\/\/(\/[A-Za-z0-9._@+=,/-]{1,4000})$/;
const TCP_HOST = /^tcp:\/\/([A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\]):([0-9]{1,5})$/;

/** The parts of a Docker `host`, or null when it is not one of the two accepted forms. */
export function parseDockerHost(host: string): { kind: 'unix'; path: string } | { kind: 'tcp'; host: string; port: number } | null {
  const u = UNIX_HOST.exec(host);
  if (u) return hasDotDot(u[1]) ? null : { kind: 'unix', path: u[1] };
  const t = TCP_HOST.exec(host);
  if (!t) return null;
  const port = Number(t[2]);
  return port >= 1 && port <= 65535 ? { kind: 'tcp', host: t[1].replace(/^\[|\]$/g, '').toLowerCase(), port } : null;
}

const int = (min: number, max: number, def: number, unit: string) =>
  z
    .number({ error: `Enter a whole number of ${unit}.` })
    .int(`Enter a whole number of ${unit}.`)
    .min(min, `At least ${min} ${unit}.`)
    .max(max, `At most ${max} ${unit}.`)
    .default(def);

/** When a new skill snapshot reaches running sandboxes: at their next use (recycled), or only in sandboxes started after it. */
export const SKILL_ROLLOUTS = ['next_turn', 'new_session'] as const;
export type SkillRollout = (typeof SKILL_ROLLOUTS)[number];

const common = {
  skillRollout: z
    .enum(SKILL_ROLLOUTS, { error: 'Skill rollout is next_turn or new_session.' })
    .default('next_turn')
    .describe('next_turn: a running sandbox on an older skill image is recycled at its next use; new_session: only new sandboxes get it'),
  allowPrivateEndpoints: z.boolean().default(false).describe('Let Skilldock itself dial private and loopback endpoints (link-local and metadata stay refused)'),
  defaultTimeoutSec: int(1, 3600, 60, 'seconds').describe('Default timeout of one command'),
  terminalIdleDisconnectSec: int(60, 86400, 900, 'seconds').describe('Idle terminal disconnect'),
  httpTimeoutSec: int(1, 300, 30, 'seconds').describe('Timeout of one call to the engine or control plane'),
};

export const dockerConfig = z.strictObject({
  image: z
    .string()
    .trim()
    .superRefine((v, ctx) => {
      const p = imageRefProblem(v);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    })
    .describe('Image reference; never pulled by Skilldock'),
  host: z
    .string()
    .trim()
    .max(4100)
    .default('')
    .refine((h) => h === '' || parseDockerHost(h) !== null, { message: 'Use unix:///absolute/path or tcp://host:port (empty = the local socket).' })
    .describe('DOCKER_HOST form; empty = the local socket'),
  tlsCertPath: absPath('The TLS certificate folder').default('').describe('Folder holding ca.pem, cert.pem and key.pem; required for tcp'),
  cpuLimit: z.number({ error: 'Enter a number of CPUs.' }).min(0.1, 'At least 0.1 CPU.').max(64, 'At most 64 CPUs.').default(2),
  memoryLimitMb: int(64, 262144, 2048, 'MB').describe('Memory limit (swap is not added)'),
  pidsLimit: int(16, 32768, 512, 'processes'),
  runtime: z
    .string()
    .trim()
    .max(64)
    .default('')
    .refine((r) => r === '' || /^[a-z][a-z0-9._-]{0,63}$/.test(r), { message: 'An OCI runtime name: lower-case letters, digits, ".", "_", "-" (e.g. runsc).' })
    .describe('OCI runtime, e.g. runsc; empty = the engine default'),
  readOnlyRootfs: z.boolean().default(false),
  idleTtlSeconds: int(60, 604800, 1800, 'seconds').describe('Idle time after which the sweep removes a sandbox'),
  networkMode: z.enum(['bridge', 'none'], { error: 'Network mode is bridge or none.' }).default('bridge'),
  workspaceMount: absPath('The workspace mount').default('').describe('Host folder mounted at /workspace; must be inside an allowed host root'),
  ...common,
});

const URL_RE = /^https?:\/\/[^\s/?#@]{1,255}(?::[0-9]{1,5})?(?:\/[^\s?#]{0,1000})?$/;
const url = (what: string) =>
  z
    .string()
    .trim()
    .max(1300)
    .refine((u) => u === '' || URL_RE.test(u), { message: `${what} must be an http(s) URL without credentials.` });
const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const remote = {
  apiKey: z.string().max(512, 'An API key is at most 512 characters.').default('').describe('Secret: returned as "***"; "***" keeps the stored key'),
  templateId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}$/, 'A template id: letters, digits and _.:/- (at most 128).'),
  proxyUrl: url('The proxy URL').default('').describe('Data-plane gateway that keeps the sandbox Host header'),
  caCert: z
    .string()
    .max(16384, 'A CA certificate is at most 16 KiB of PEM.')
    .default('')
    .refine((c) => c === '' || c.includes('-----BEGIN CERTIFICATE-----'), { message: 'Paste a PEM certificate (-----BEGIN CERTIFICATE-----).' }),
  skipTlsVerify: z.boolean().default(false),
  sandboxTtlSeconds: int(60, 86400, 300, 'seconds').describe('Remote sandbox timeout'),
  ...common,
};

export const e2bConfig = z.strictObject({
  ...remote,
  templateId: remote.templateId.default('base'),
  apiUrl: url('The API URL').default('https://api.e2b.app'),
  domain: z.string().trim().toLowerCase().regex(DOMAIN, 'A domain name, e.g. e2b.app.').default('e2b.app'),
});

export const cubeConfig = z.strictObject({
  ...remote,
  apiUrl: url('The API URL').refine((u) => u !== '', { message: 'Enter the control-plane URL.' }),
  domain: z.string().trim().toLowerCase().regex(DOMAIN, 'A domain name, e.g. sandbox.example.com.'),
  dnsServers: z
    .array(z.union([z.ipv4(), z.ipv6()], { error: 'An IP address.' }))
    .max(4, 'At most 4 DNS servers.')
    .default([]),
});

export const CONFIG_SCHEMAS = { docker: dockerConfig, e2b: e2bConfig, cube: cubeConfig } as const;
export type DockerConfig = z.output<typeof dockerConfig>;
export type E2bConfig = z.output<typeof e2bConfig>;
export type CubeConfig = z.output<typeof cubeConfig>;
export type AnyConfig = DockerConfig | E2bConfig | CubeConfig;

const name = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,62}$/, 'A name of 1–63 letters, digits, spaces and ._- (starting with a letter or digit).');
const description = z.string().trim().max(500, 'At most 500 characters.');

const network = networkPolicySchema.optional().describe('The network policy (default: outbound open); change it later with PUT …/network');
const env = z
  .array(setConfigEnvInput)
  .max(MAX_ENV_PER_SCOPE, `At most ${MAX_ENV_PER_SCOPE} variables per config.`)
  .refine((vars) => new Set(vars.map((v) => v.name)).size === vars.length, { message: 'Each variable is named once.' })
  .optional()
  .describe('Config-level variables set with the config, sealed (change them later with PUT …/env)');

const backendField = z.enum(SANDBOX_BACKENDS, { error: 'The backend is docker, e2b or cube.' });

export const createConfigInput = z.discriminatedUnion(
  'backend',
  [
    z.strictObject({ name, description: description.default(''), backend: z.literal('docker'), config: dockerConfig, network, env }),
    z.strictObject({ name, description: description.default(''), backend: z.literal('e2b'), config: e2bConfig, network, env }),
    z.strictObject({ name, description: description.default(''), backend: z.literal('cube'), config: cubeConfig, network, env }),
  ],
  { error: 'The backend is docker, e2b or cube.' },
);
export type CreateConfigInput = z.output<typeof createConfigInput>;

/** A change: `config` is merged onto the stored one and the result validated with the backend's schema. */
export const patchConfigInput = z.strictObject({
  name: name.optional(),
  description: description.optional(),
  backend: backendField.optional(),
  config: z.record(z.string(), z.unknown()).optional(),
});
export type PatchConfigInput = z.output<typeof patchConfigInput>;

export const cloneConfigInput = z.strictObject({ name });
export const configIdParams = z.strictObject({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a config id.') });

const usageOut = z.object({
  instances: z.array(z.object({ id: z.string(), state: z.string(), createdAt: z.string().nullable() })),
  agents: z.array(z.object({ id: z.string(), name: z.string() })),
});
export const inUseOut = usageOut;

export const sandboxConfigOut = z.object({
  id: z.string(),
  name: z.string(),
  backend: z.enum(SANDBOX_BACKENDS),
  description: z.string(),
  config: z.record(z.string(), z.unknown()).describe('The backend fields; secrets as "***" when set'),
  secretsConfigured: z.array(z.string()),
  enabled: z.boolean(),
  lastCheckAt: z.string().nullable(),
  lastCheckPassedAt: z.string().nullable(),
  lastCheckReport: z.record(z.string(), z.unknown()).nullable(),
  lockedUntil: z.string().nullable(),
  envCount: z.number(),
  createdAt: z.string(),
  createdBy: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
});
export type SandboxConfigView = z.output<typeof sandboxConfigOut>;

export const sandboxConfigDetailOut = sandboxConfigOut.extend({ usage: usageOut.extend({ verified: z.boolean() }) });
export const sandboxConfigListOut = z.object({ items: z.array(sandboxConfigOut.extend({ instances: z.number().nullable() })) });
