// The inputs of the gateways domain: one zod schema per input, shared by the console's forms, the
// server actions, the REST routes and the OpenAPI document.
import { z } from 'zod';

export const GATEWAY_ID = /^gw_[A-Za-z0-9_-]{6,40}$/;
export const gatewayId = z.string().regex(GATEWAY_ID, 'Not a gateway id (gw_…).');
export const gatewayIdParams = z.strictObject({ id: gatewayId });

const absPath = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(1024)
    .refine((p) => p.startsWith('/'), `The ${what} is an absolute path (starts with /).`)
    .refine((p) => !p.includes('\0') && !/(^|\/)\.\.(\/|$)/.test(p), `The ${what} may not contain ".." or NUL.`);

/** The gateway's own command: a path, or a bare program name found on PATH. Never a shell string. */
const cliCommand = z
  .string()
  .trim()
  .min(1)
  .max(1024)
  .regex(/^[A-Za-z0-9_./+@-]+$/, 'The CLI is one program (a path or a name): letters, digits and _ . / + @ - only, no spaces or shell syntax.')
  .refine((p) => !/(^|\/)\.\.(\/|$)/.test(p), 'The CLI path may not contain "..".');

const containerRef = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, 'A container is its id or name (letters, digits, _ . -).');

const dockerHost = z
  .string()
  .trim()
  .max(512)
  .regex(/^(unix:\/\/\/[^\s]+|tcp:\/\/[A-Za-z0-9.[\]:-]+:\d{1,5})$/, 'A Docker host is unix:///path or tcp://host:port.');

export const gatewayUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((u) => {
    try {
      const p = new URL(u);
      return (p.protocol === 'ws:' || p.protocol === 'wss:' || p.protocol === 'http:' || p.protocol === 'https:') && !p.username && !p.password;
    } catch {
      return false;
    }
  }, 'The gateway URL is ws://, wss://, http:// or https:// host:port, with no user or password in it.');

export const writeMode = z.enum(['auto', 'cli', 'file']);

export const localLocation = z.strictObject({
  type: z.literal('local'),
  stateDir: absPath('state folder'),
  cli: cliCommand.optional(),
  /** The gateway's HOME (its personal ~/.agents/skills); default: the server's. */
  home: absPath('home folder').optional(),
  /** auto: the gateway's CLI when it runs, else the file itself; file: always the file (fastest). */
  write: writeMode.optional(),
  /** The gateway runs with OPENCLAW_CONFIG_READONLY=1: syncs produce the patch for the deployment system instead. */
  readOnly: z.boolean().optional(),
});

export const dockerLocation = z
  .strictObject({
    type: z.literal('docker'),
    configId: z.string().min(1).max(64).optional(),
    host: dockerHost.optional(),
    container: containerRef,
    stateDir: absPath('state folder'),
    cli: cliCommand.optional(),
  })
  .refine((l) => !(l.configId && l.host), { message: 'Give a sandbox config or a Docker host, not both.', path: ['host'] });

export const remoteLocation = z.strictObject({
  type: z.literal('remote'),
  url: gatewayUrl,
  /** The gateway's token; "***" keeps the stored one. */
  token: z.string().min(1, 'Enter the gateway token.').max(4096),
});

export const gatewayLocation = z.discriminatedUnion('type', [localLocation, dockerLocation, remoteLocation]);
export type GatewayLocationInput = z.infer<typeof gatewayLocation>;

const name = z.string().trim().min(1, 'Enter a name.').max(80);
const agentIds = z.array(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/)).max(1000);

export const createGatewayInput = z.strictObject({
  name,
  // Folder clients are not connected by hand: they are listed once `skilldock sync` runs.
  kind: z
    .literal('openclaw', { error: 'Only OpenClaw gateways are connected here; a folder client appears once skilldock sync runs for its agent.' })
    .default('openclaw'),
  location: gatewayLocation,
  autoSync: z.boolean().default(true),
});
export type CreateGatewayInput = z.infer<typeof createGatewayInput>;

export const patchGatewayInput = z.strictObject({
  revision: z.number().int().min(1),
  name: name.optional(),
  location: gatewayLocation.optional(),
  autoSync: z.boolean().optional(),
  /** The gateway agents linked to Skilldock agents of the same id. */
  agentIds: agentIds.optional(),
});
export type PatchGatewayInput = z.infer<typeof patchGatewayInput>;

export const adoptQuery = z.strictObject({ preview: z.enum(['true', 'false']).optional() });
export const adoptInput = z.strictObject({
  /** The gateway agents to link; absent: all of them. */
  agentIds: agentIds.optional(),
});
export const syncQuery = z.strictObject({ dryRun: z.enum(['true', 'false']).optional() });

const clientAgentId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'An agent id.');
export const folderClientsQuery = z.strictObject({ agentId: clientAgentId.optional() });
export const folderClientParams = z.strictObject({ agentId: clientAgentId, clientId: z.string().regex(/^[a-f0-9]{16,64}$/, 'A folder client id (hex).') });
