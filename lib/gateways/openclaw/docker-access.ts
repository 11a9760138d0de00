// An OpenClaw gateway in a Docker container, reached through the Engine API only: its own CLI
// (`cli`, default `openclaw`) through exec with argument arrays, its config read through the
// archive API, skill folders written with putArchive into `<stateDir>/skills` (docker-skills.ts),
// and the secrets file for apiKeys beside the config (docker-secrets.ts).
import { createHash } from 'node:crypto';
import path from 'node:path/posix';
import type Docker from 'dockerode';
import JSON5 from 'json5';
import { AppError } from '../../core/errors';
import { trimEndChar } from '../../core/text';
import { ConfigChangedError, type GatewayAccess, type GatewayAgentSkills, type GatewayConfigRead, type SecretsFile, type SkillFolder } from '../access';
import { cliError, parseSkillsList } from './cli';
import { type ContainerExecResult, execInContainer, type GatewayDocker, gatewayEngineError } from './docker-exec';
import { readContainerFile } from './docker-files';
import { containerSecretsFile } from './docker-secrets';
import { listManaged, type ManagedDir, prepareManaged, putManaged, removeManaged } from './docker-skills';
import { CONFIG_FILE, MAX_CONFIG_BYTES } from './state-dir';

export interface DockerLocation {
  type: 'docker';
  /** The container's id or name. */
  container: string;
  /** The gateway's state folder, absolute inside the container (e.g. /root/.openclaw). */
  stateDir: string;
  /** The gateway's CLI: a command name on the container's PATH or an absolute path; `openclaw` by default. */
  cli?: string;
}

export const DOCKER_CLI_TIMEOUT_MS = 60_000;
const MAX_CLI_OUTPUT = 16 * 1024 * 1024;
/** How many `skills list` runs go at once (each one is a whole CLI start). */
const LIST_PARALLEL = 2;

const CONTAINER_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;
const CLI_RE = /^(\/[A-Za-z0-9_.+@/-]{1,4095}|[A-Za-z0-9_.+@-]{1,255})$/;
const AGENT_RE = /^[A-Za-z0-9_.-]{1,128}$/;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function invalid(field: string, message: string): AppError {
  return new AppError('validation', message, { issues: [{ path: `location.${field}`, message }] });
}

/** Refuses a location the engine or the container could misread: checked before any call. */
export function checkDockerLocation(loc: DockerLocation): DockerLocation {
  if (typeof loc.container !== 'string' || !CONTAINER_RE.test(loc.container))
    throw invalid('container', 'A container id or name: letters, digits, "_", "." and "-".');
  if (typeof loc.stateDir !== 'string' || !loc.stateDir.startsWith('/') || loc.stateDir.includes('\0') || loc.stateDir.length > 4096)
    throw invalid('stateDir', 'The state folder must be an absolute path inside the container.');
  const stateDir = trimEndChar(path.normalize(loc.stateDir), '/');
  if (!stateDir || stateDir.split('/').includes('..')) throw invalid('stateDir', 'The state folder must be an absolute path below / without "..".');
  if (loc.cli !== undefined && (!CLI_RE.test(loc.cli) || loc.cli.split('/').includes('..')))
    throw invalid('cli', "The CLI must be a command name or an absolute path (letters, digits, '_', '.', '+', '@', '-').");
  return { type: 'docker', container: loc.container, stateDir, ...(loc.cli ? { cli: loc.cli } : {}) };
}

/** A single dockerode client serves both bounded calls and streams. */
export function gatewayDocker(docker: Docker | GatewayDocker, endpoint = 'the configured Docker engine'): GatewayDocker {
  return 'api' in docker && 'stream' in docker ? docker : { endpoint, api: docker, stream: docker };
}

export class DockerOpenClawAccess implements GatewayAccess {
  readonly loc: DockerLocation;
  readonly d: GatewayDocker;
  readonly managed: ManagedDir;
  private readonly timeoutMs: number;
  private configPath: string | null = null;
  private prepared = false;

  constructor(loc: DockerLocation, docker: Docker | GatewayDocker, opts: { timeoutMs?: number } = {}) {
    this.loc = checkDockerLocation(loc);
    this.d = gatewayDocker(docker);
    this.timeoutMs = opts.timeoutMs ?? DOCKER_CLI_TIMEOUT_MS;
    this.managed = { d: this.d, container: this.loc.container, dir: path.join(this.loc.stateDir, 'skills') };
  }

  private get cliName(): string {
    return this.loc.cli ?? 'openclaw';
  }

  /** The gateway's CLI with `args` in the container; a CLI the container lacks is an error that says so. */
  async cli(args: string[], stdin?: string): Promise<ContainerExecResult> {
    const r = await execInContainer(this.d, this.loc.container, {
      argv: [this.cliName, ...args],
      env: { OPENCLAW_STATE_DIR: this.loc.stateDir, NO_COLOR: '1' },
      timeoutMs: this.timeoutMs,
      maxOutputBytes: MAX_CLI_OUTPUT,
      ...(stdin !== undefined ? { stdin } : {}),
    });
    // The engine answers 126/127 with its own words when the program cannot be found or started.
    if ((r.code === 126 || r.code === 127) && /executable file not found|no such file|permission denied|OCI runtime/i.test(`${r.stdout}${r.stderr}`))
      throw new AppError('unavailable', `The gateway container ${this.loc.container} cannot run its CLI \`${this.cliName}\`: ${cliError(r)}`, {
        hint: "Set the gateway's CLI to the command (or absolute path) of `openclaw` inside the container.",
      });
    return r;
  }

  async version(): Promise<string> {
    const r = await this.cli(['--version']);
    const m = /OpenClaw\s+(\d[^\s()]*)/.exec(r.stdout);
    if (r.code !== 0 || !m) throw new AppError('unavailable', `The gateway's CLI did not report its version: ${cliError(r)}`);
    return m[1] as string;
  }

  /** `<cli> config file` names the config (a path inside the container), else `<stateDir>/openclaw.json`. */
  private async resolveConfigPath(): Promise<string> {
    if (this.configPath) return this.configPath;
    const r = await this.cli(['config', 'file']);
    const named =
      r.code === 0
        ? r.stdout
            .split('\n')
            .map((l) => l.trim())
            .findLast((l) => l.startsWith('/'))
        : undefined;
    this.configPath = named && !named.includes('\0') ? path.normalize(named) : path.join(this.loc.stateDir, CONFIG_FILE);
    return this.configPath;
  }

  private async writable(): Promise<boolean> {
    let env: string[];
    try {
      env = ((await this.d.api.getContainer(this.loc.container).inspect()).Config?.Env ?? []) as string[];
    } catch (e) {
      throw gatewayEngineError(e, this.d, this.loc.container, 'Inspecting the container');
    }
    return !env.includes('OPENCLAW_CONFIG_READONLY=1');
  }

  async readConfig(): Promise<GatewayConfigRead> {
    const writable = await this.writable();
    const file = await this.resolveConfigPath();
    const bytes = await readContainerFile(this.d, this.loc.container, file, MAX_CONFIG_BYTES);
    if (!bytes) throw new AppError('not_found', `The gateway's config ${file} does not exist in the container ${this.loc.container}.`);
    const raw = bytes.toString('utf8');
    let value: unknown;
    try {
      value = JSON5.parse(raw);
    } catch (e) {
      throw new AppError('validation', `The gateway's config ${file} is not valid JSON5: ${(e as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AppError('validation', `The gateway's config ${file} is not an object.`);
    return { path: file, raw, value: value as Record<string, unknown>, hash: sha256(raw), writable };
  }

  /** Arrays replace under the CLI's merge rules, so `replacePaths` needs no flag of its own here. */
  async patchConfig(patch: Record<string, unknown>, baseHash: string, _replacePaths: string[] = []): Promise<{ hash: string }> {
    const now = await this.readConfig();
    if (now.hash !== baseHash) throw new ConfigChangedError(baseHash);
    if (!now.writable)
      throw new AppError('not_allowed', `The gateway container ${this.loc.container} forbids config writes (OPENCLAW_CONFIG_READONLY=1).`, {
        hint: 'Remove OPENCLAW_CONFIG_READONLY from the container, or change the config by hand.',
      });
    const r = await this.cli(['config', 'patch', '--stdin'], JSON.stringify(patch));
    if (r.code !== 0) throw new AppError('validation', `The gateway refused the change: ${cliError(r)}`);
    return { hash: (await this.readConfig()).hash };
  }

  async agentSkills(agentIds: string[]): Promise<GatewayAgentSkills[]> {
    for (const id of agentIds) if (!AGENT_RE.test(id)) throw new AppError('validation', `"${String(id).slice(0, 140)}" is not a valid agent id.`);
    const out: GatewayAgentSkills[] = new Array(agentIds.length);
    let next = 0;
    const worker = async () => {
      while (next < agentIds.length) {
        const i = next++;
        out[i] = await this.agentSkillsOf(agentIds[i] as string);
      }
    };
    await Promise.all(Array.from({ length: Math.min(LIST_PARALLEL, agentIds.length) }, worker));
    return out;
  }

  private async agentSkillsOf(agentId: string): Promise<GatewayAgentSkills> {
    const r = await this.cli(['skills', 'list', '--agent', agentId, '--json']);
    if (r.code !== 0) throw new AppError('upstream_error', `The gateway could not list the skills of agent ${agentId}: ${cliError(r)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(r.stdout);
    } catch {
      throw new AppError('upstream_error', `The gateway's skill list for ${agentId} is not JSON.`);
    }
    return parseSkillsList(agentId, parsed);
  }

  private async ready(): Promise<void> {
    if (this.prepared) return;
    await prepareManaged(this.managed);
    this.prepared = true;
  }

  async managedFolders() {
    await this.ready();
    return listManaged(this.managed);
  }

  async putSkill(folder: SkillFolder): Promise<void> {
    await this.ready();
    await putManaged(this.managed, folder);
  }

  async removeSkill(name: string): Promise<void> {
    await this.ready();
    await removeManaged(this.managed, name);
  }

  /** The file apiKey SecretRefs point at, in the state folder (the stored folder, checked above). */
  secretsFile(): SecretsFile {
    return containerSecretsFile(this.d, this.loc.container, this.loc.stateDir);
  }

  async close(): Promise<void> {}
}
