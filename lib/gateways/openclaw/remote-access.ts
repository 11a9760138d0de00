// A gateway on another machine, reached only through its WebSocket RPC. Config reads and writes
// and the per-agent skill view work as for a local gateway. Skill folders cannot be placed: the
// RPC's only file path for skills (skills.upload.* then skills.install {source:"upload"}) installs
// a zip into one agent's workspace `skills/<slug>` — not the managed folder every agent shares —
// only when the gateway enables skills.install.allowUploadedArchives, and offers no listing of
// folder markers and no removal. So those three methods refuse with a clear error.
import { AppError } from '../../core/errors';
import { ConfigChangedError, type GatewayAccess, type GatewayAgentSkills, type GatewayConfigRead, type GatewaySecretStore, type SkillFolder } from '../access';
import { parseSkillsList } from './cli';
import { GatewayRpcError, OpenClawRpc, type RpcOptions } from './rpc';
import { type DeviceIdentity, isStaleHash } from './rpc-frames';

/** What `config.get` answers (the fields Skilldock reads). */
export interface RpcConfigGet {
  path?: string;
  exists?: boolean;
  raw?: string | null;
  parsed?: unknown;
  hash?: string;
  valid?: boolean;
}

/** How many skills.status calls run at once on one connection. */
const STATUS_PARALLEL = 4;

export interface RemoteAccessOptions extends Omit<RpcOptions, 'url' | 'token'> {
  device?: DeviceIdentity;
}

export class RemoteOpenClawAccess implements GatewayAccess {
  private conn: Promise<OpenClawRpc> | null = null;
  private closed = false;

  constructor(
    readonly url: string,
    private readonly token: string,
    private readonly opts: RemoteAccessOptions = {},
  ) {}

  /** The open connection, opened again when the gateway closed it (it does so after some config writes). */
  private async rpc(): Promise<OpenClawRpc> {
    if (this.closed) throw new AppError('invalid_state', 'This gateway connection was closed.');
    if (this.conn) {
      const c = await this.conn.catch(() => null);
      if (c?.isOpen) return c;
    }
    const attempt = OpenClawRpc.connect({ ...this.opts, url: this.url, token: this.token });
    this.conn = attempt;
    attempt.catch(() => {
      if (this.conn === attempt) this.conn = null;
    });
    return attempt;
  }

  async version(): Promise<string> {
    return (await this.rpc()).version;
  }

  async readConfig(): Promise<GatewayConfigRead> {
    const r = await (await this.rpc()).request<RpcConfigGet>('config.get', {});
    const value = r.exists === false ? {} : r.parsed;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new AppError('upstream_error', `The gateway at ${this.url} answered config.get without a config object.`);
    if (typeof r.hash !== 'string' || !r.hash) throw new AppError('upstream_error', `The gateway at ${this.url} answered config.get without a hash.`);
    return {
      path: typeof r.path === 'string' ? r.path : 'openclaw.json',
      raw: typeof r.raw === 'string' ? r.raw : null,
      value: value as Record<string, unknown>,
      hash: r.hash,
      writable: true,
    };
  }

  async patchConfig(patch: Record<string, unknown>, baseHash: string, replacePaths: string[]) {
    const rpc = await this.rpc();
    let r: { hash?: unknown };
    try {
      r = await rpc.call<{ hash?: unknown }>('config.patch', { raw: JSON.stringify(patch), baseHash, ...(replacePaths.length ? { replacePaths } : {}) });
    } catch (e) {
      if (e instanceof GatewayRpcError) throw isStaleHash(e.shape) ? new ConfigChangedError(baseHash) : e.app;
      throw e;
    }
    if (typeof r?.hash === 'string' && r.hash) return { hash: r.hash };
    // An answer without the new hash: read it.
    return { hash: (await this.readConfig()).hash };
  }

  async agentSkills(agentIds: string[]): Promise<GatewayAgentSkills[]> {
    const rpc = await this.rpc();
    const out: GatewayAgentSkills[] = new Array(agentIds.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < agentIds.length; i = next++) {
        const agentId = agentIds[i] as string;
        out[i] = parseSkillsList(agentId, await rpc.request('skills.status', { agentId }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(STATUS_PARALLEL, agentIds.length) }, worker));
    return out;
  }

  /** OpenClaw's shared secret store (operator.admin): protected `secret` entries, which no RPC reveals. */
  readonly secretStore: GatewaySecretStore = {
    set: async (name, value) => {
      await (await this.rpc()).request('secrets.store.set', { name, value, kind: 'secret' });
    },
    remove: async (name) => {
      await (await this.rpc()).request('secrets.store.delete', { name });
    },
  };

  private unsupported(what: string): never {
    throw new AppError('invalid_state', `${what} is not possible on the remote gateway at ${this.url}: its RPC cannot reach the managed skills folder.`, {
      details: { url: this.url, reason: 'remote_skills_unsupported' },
      hint: 'A remote gateway gets skill files only through uploads (skills.upload.* + skills.install), which install into one agent workspace, need skills.install.allowUploadedArchives, and cannot list or remove folders. Run Skilldock where it reaches the gateway state folder (local or Docker) to manage its skills; allowlists still sync remotely.',
    });
  }

  readonly placesSkills = false;

  managedFolders(): Promise<never> {
    return Promise.resolve().then(() => this.unsupported('Listing the managed skill folders'));
  }

  putSkill(_folder: SkillFolder): Promise<void> {
    return Promise.resolve().then(() => this.unsupported('Putting a skill folder'));
  }

  removeSkill(_name: string): Promise<void> {
    return Promise.resolve().then(() => this.unsupported('Removing a skill folder'));
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = await this.conn?.catch(() => null);
    this.conn = null;
    await c?.close();
  }
}
