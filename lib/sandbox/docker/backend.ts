// The Docker sandbox backend, through dockerode only. Config-level settings (engine, runtime,
// read-only rootfs, workspace mount) come with the constructor; per-sandbox ones with create().
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { AppError } from '@/lib/core/errors';
import type { Attachment } from '../../network/docker/enforcer';
import { isOpenPolicy } from '../../network/policy/open';
import { OPEN_POLICY } from '../../network/policy/types';
import type { BackendCapabilities, CreateSandboxSpec, ExecRequest, ExecResult, FileEntry, SandboxBackend, SandboxInfo, SandboxState } from '../backend';
import { KIT_MOUNT } from '../kit/build';
import { kitVolume } from '../kit/volume';
import type { NetworkControl } from '../network/control';
import { SandboxActivity } from './activity';
import { DockerClients, type DockerConnection, type DockerConnectionOptions, dockerConnection, statusOf, toAppError } from './connection';
import {
  containerCreateOptions,
  type DockerSandboxSettings,
  LABEL_CONFIG,
  LABEL_INSTALLATION,
  LABEL_MANAGED,
  resolveWorkspaceMount,
  WORKSPACE,
} from './create-spec';
import { runExec } from './exec';
import { getFile, getFolderArchive, listDir, putFile, putTar } from './files';
import { type SweepOptions, type SweepResult, sweepIdle } from './sweep';
import { buildTar } from './tar';
import { openTty, type TtyOptions, type TtySession } from './tty';

const START_WAIT_MS = 15_000;
const IMAGE_RE = /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[0-9]{1,5})?(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;
const ID_RE = /^(?:[a-f0-9]{12,64}|[a-zA-Z0-9][a-zA-Z0-9_.-]{0,127})$/;

export interface DockerBackendOptions extends DockerConnectionOptions, DockerSandboxSettings {
  /** Skilldock's firewall, proxy and DNS for this host (here or through the replica holding them); absent where it cannot enforce. */
  enforcer?: Pick<NetworkControl, 'attach'>;
  /** Why the enforcer is absent, for the error a non-open policy gets. */
  enforcementProblem?: string | null;
  /** Leases and last use of sandboxes (the database's, seen by every replica); this process's alone otherwise. */
  activity?: SandboxActivity;
  /** Test seam for waits; real time otherwise. */
  sleep?: (ms: number) => Promise<void>;
}

function stateOf(s: string | undefined): SandboxState {
  switch (s) {
    case 'created':
      return 'creating';
    case 'running':
    case 'paused':
    case 'exited':
      return s;
    case 'dead':
    case 'removing':
      return 'stopped';
    default:
      return 'unknown';
  }
}

function checkId(id: string): string {
  if (typeof id !== 'string' || !ID_RE.test(id))
    throw new AppError('validation', 'invalid sandbox id', { issues: [{ path: 'id', message: '12–64 hex characters or a container name' }] });
  return id;
}

export function checkImage(image: string): string {
  if (typeof image !== 'string' || image.length > 512 || !IMAGE_RE.test(image)) {
    throw new AppError('validation', `invalid image reference ${JSON.stringify(String(image).slice(0, 80))}`, {
      issues: [{ path: 'image', message: 'a Docker image reference' }],
    });
  }
  return image;
}

export interface ContainerStatsSample {
  cpuPercent: number;
  memoryBytes: number;
  memoryLimitBytes: number | null;
  pids: number | null;
}

export class DockerBackend implements SandboxBackend {
  readonly kind = 'docker' as const;
  readonly conn: DockerConnection;
  readonly activity: SandboxActivity;
  private readonly sleep: (ms: number) => Promise<void>;

  /** The service's engine clients, or this backend's own, shared with the backends made from it. */
  private readonly clients: DockerClients;

  constructor(private readonly opts: DockerBackendOptions = {}) {
    this.clients = opts.clients ?? new DockerClients();
    this.conn = dockerConnection({ ...opts, clients: this.clients });
    this.activity = opts.activity ?? new SandboxActivity();
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** The same engine and settings with some changed (a skill install's container: writable, no host mount). */
  withSettings(overrides: Partial<DockerSandboxSettings>): DockerBackend {
    return new DockerBackend({ ...this.opts, clients: this.clients, activity: this.activity, ...overrides });
  }

  capabilities(): BackendCapabilities {
    return { networkUpdate: true, egressDomains: false, snapshots: true, tty: true, stats: true };
  }

  private async call<T>(what: string, fn: (d: Docker) => Promise<T>): Promise<T> {
    try {
      return await fn(this.conn.api);
    } catch (e) {
      throw toAppError(e, this.conn.endpoint, what);
    }
  }

  async ping(_signal?: AbortSignal): Promise<{ latencyMs: number; version?: string }> {
    const t0 = Date.now();
    try {
      const v = await this.conn.api.version();
      return { latencyMs: Date.now() - t0, version: v.Version };
    } catch (e) {
      throw toAppError(e, this.conn.endpoint, 'version');
    }
  }

  /** The OCI runtimes the engine offers (e.g. runc, runsc); a config may only pick one of these. */
  async runtimes(): Promise<string[]> {
    const info = await this.call('info', (d) => d.info() as Promise<{ Runtimes?: Record<string, unknown> }>);
    return Object.keys(info.Runtimes ?? {}).sort();
  }

  async imageExists(image: string, _signal?: AbortSignal): Promise<boolean> {
    checkImage(image);
    try {
      await this.conn.api.getImage(image).inspect();
      return true;
    } catch (e) {
      if (statusOf(e) === 404) return false;
      throw toAppError(e, this.conn.endpoint, `inspect image ${image}`);
    }
  }

  /** Whether this backend talks to the engine of this host (only there can Skilldock's firewall reach its bridges). */
  get localEngine(): boolean {
    return this.conn.endpoint.startsWith('unix://');
  }

  /** Containers of a local engine run on this kernel and read its clock. */
  get sharesHostClock(): boolean {
    return this.localEngine;
  }

  /** A bridge sandbox joins its config's enforced network; a policy nobody can enforce is refused. */
  private async attachNetwork(spec: CreateSandboxSpec): Promise<Attachment | null> {
    const mode = spec.network ?? this.opts.network ?? 'none';
    if (mode !== 'bridge') return null;
    const policy = spec.networkPolicy ?? OPEN_POLICY;
    if (this.opts.enforcer && this.opts.configId && this.localEngine) return this.opts.enforcer.attach(this.conn.api, this.opts.configId, policy);
    if (isOpenPolicy(policy)) return null;
    const why = this.localEngine
      ? (this.opts.enforcementProblem ?? 'Network enforcement is off on this server.')
      : 'The engine is remote, so Skilldock cannot install firewall rules on its host.';
    throw new AppError(
      'network_unenforceable',
      `This config has network rules, but they cannot be enforced: ${why} Use the open policy or network mode "none".`,
    );
  }

  async create(spec: CreateSandboxSpec, signal?: AbortSignal): Promise<SandboxInfo> {
    checkImage(spec.image);
    // Everything that can be refused is refused here, before the engine is called.
    const hostWorkspace = this.opts.workspaceMount ? resolveWorkspaceMount(this.opts.workspaceMount) : undefined;
    const attached = await this.attachNetwork(spec);
    const kit = await kitVolume(this.conn, spec.image);
    const body = containerCreateOptions(
      attached ? { ...spec, network: attached.network } : spec,
      attached ? { ...this.opts, dns: attached.dns } : this.opts,
      kit,
      hostWorkspace,
    );
    if (this.opts.runtime) {
      const offered = await this.runtimes();
      if (!offered.includes(this.opts.runtime)) {
        throw new AppError('validation', `runtime ${this.opts.runtime} is not offered by the engine at ${this.conn.endpoint}`, {
          issues: [{ path: 'runtime', message: `one of ${offered.join(', ')}` }],
          details: { offered },
        });
      }
    }
    let container: Docker.Container | undefined;
    try {
      container = await this.call('create container', (d) => d.createContainer({ ...body, abortSignal: signal }));
      const c = container;
      await this.call('start container', () => c.start());
      await this.waitRunning(c, signal);
      const now = new Date();
      await putTar(
        this.conn,
        c.id,
        WORKSPACE,
        buildTar([
          { type: 'dir', name: 'input', mtime: now },
          { type: 'dir', name: 'output', mtime: now },
        ]),
      );
      await this.activity.recordActivity(c.id, now);
      const info = await this.get(c.id, signal);
      if (!info) throw new AppError('sandbox_not_found', `container ${c.id} disappeared after start`);
      // An image without `sleep` lets the init start, then exit: that shows only now.
      if (info.state !== 'running') await this.waitRunning(c, signal);
      return info;
    } catch (e) {
      if (container)
        await this.conn.api
          .getContainer(container.id)
          .remove({ force: true, v: true })
          .catch(() => {});
      throw e;
    }
  }

  private async waitRunning(c: Docker.Container, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + START_WAIT_MS;
    for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
      const s = await this.call('inspect container', () => c.inspect());
      if (s.State.Running) return;
      if (s.State.Status === 'exited' || s.State.Status === 'dead') {
        throw new AppError('sandbox_error', `container exited right after start (code ${s.State.ExitCode}): ${s.State.Error || 'no error reported'}`);
      }
      if (Date.now() > deadline || signal?.aborted)
        throw new AppError('sandbox_timeout', `container not running after ${START_WAIT_MS / 1000} s (state ${s.State.Status})`);
      await this.sleep(delay);
    }
  }

  async get(id: string, signal?: AbortSignal): Promise<SandboxInfo | null> {
    checkId(id);
    let s: Docker.ContainerInspectInfo;
    try {
      s = await this.conn.api.getContainer(id).inspect({ abortSignal: signal });
    } catch (e) {
      if (statusOf(e) === 404) return null;
      throw toAppError(e, this.conn.endpoint, `inspect ${id}`);
    }
    if (!this.ours(s.Config.Labels)) return null;
    const lastActivityAt = (await this.activity.recorded())(s.Id, [s.Name]);
    return {
      id: s.Id,
      backend: 'docker',
      image: s.Config.Image,
      imageId: s.Image,
      labels: s.Config.Labels ?? {},
      state: stateOf(s.State.Status),
      createdAt: new Date(s.Created),
      ...(lastActivityAt ? { lastActivityAt } : {}),
    };
  }

  /**
   * Managed by Skilldock and, when this backend knows its installation, made by it (not by another
   * sharing the engine); one made before the installation label is ours when it names our config.
   */
  private ours(labels: Record<string, string> | undefined): boolean {
    if (labels?.[LABEL_MANAGED] !== 'true') return false;
    if (!this.opts.installationId) return true;
    const inst = labels[LABEL_INSTALLATION];
    return inst ? inst === this.opts.installationId : !!this.opts.configId && labels[LABEL_CONFIG] === this.opts.configId;
  }

  async list(labels: Record<string, string> = {}, signal?: AbortSignal): Promise<SandboxInfo[]> {
    const filters = [`${LABEL_MANAGED}=true`, ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)];
    const rows = await this.call('list containers', (d) => d.listContainers({ all: true, filters: { label: filters }, abortSignal: signal }));
    const ours = rows.filter((c) => this.ours(c.Labels));
    const last = ours.length ? await this.activity.recorded() : null;
    return ours.map((c) => {
      const lastActivityAt = last?.(c.Id, c.Names ?? []);
      return {
        id: c.Id,
        backend: 'docker' as const,
        image: c.Image,
        imageId: c.ImageID,
        labels: c.Labels ?? {},
        state: stateOf(c.State),
        createdAt: new Date(c.Created * 1000),
        ...(lastActivityAt ? { lastActivityAt } : {}),
      };
    });
  }

  exec(id: string, req: ExecRequest): Promise<ExecResult> {
    checkId(id);
    return this.activity.withLease(id, async () => {
      try {
        return await runExec(this.conn, id, req);
      } catch (e) {
        // A stopped (or paused) sandbox is brought back for the exec instead of failing it.
        if (!(e instanceof AppError) || e.code !== 'conflict' || !/not running|paused/i.test(e.message)) throw e;
        const c = this.conn.api.getContainer(id);
        await this.call('resume container', () => (/paused/i.test(e.message) ? c.unpause() : c.start()));
        await this.waitRunning(c, req.signal);
        return runExec(this.conn, id, req);
      }
    });
  }

  writeFile(id: string, path: string, data: Buffer, mode?: number): Promise<void> {
    checkId(id);
    return this.activity.withLease(id, () => putFile(this.conn, id, path, data, mode), 'upload');
  }

  readFile(id: string, path: string, maxBytes: number): Promise<Readable> {
    checkId(id);
    return this.activity.withLease(id, () => getFile(this.conn, id, path, maxBytes), 'file');
  }

  listFiles(id: string, dir: string): Promise<FileEntry[]> {
    checkId(id);
    return this.activity.withLease(id, () => listDir(this.conn, id, dir, (p) => p === KIT_MOUNT), 'file');
  }

  /** No lease: the idle sweep reads a sandbox's output just before it removes it. */
  readArchive(id: string, dir: string, signal?: AbortSignal): Promise<{ stream: Readable; root: string } | null> {
    checkId(id);
    return getFolderArchive(this.conn, id, dir, signal);
  }

  async remove(id: string, signal?: AbortSignal): Promise<void> {
    checkId(id);
    try {
      await this.conn.api.getContainer(id).remove({ force: true, v: true, abortSignal: signal });
    } catch (e) {
      if (statusOf(e) === 404) return;
      throw toAppError(e, this.conn.endpoint, `remove ${id}`);
    }
  }

  /** An interactive shell with a TTY; the lease is held until its stream closes. */
  async openTerminal(id: string, opts: TtyOptions = {}): Promise<TtySession> {
    checkId(id);
    const release = await this.activity.acquireLease(id, 'terminal');
    try {
      const session = await openTty(this.conn, id, opts);
      session.stream.once('end', () => void release());
      session.stream.once('close', () => void release());
      return session;
    } catch (e) {
      await release();
      throw e;
    }
  }

  /** One CPU/memory/PIDs sample; the engine takes two readings, so the CPU share is over about a second. */
  async stats(id: string): Promise<ContainerStatsSample> {
    checkId(id);
    const s = await this.call(`stats ${id}`, (d) => d.getContainer(id).stats({ stream: false }));
    const cpuDelta = (s.cpu_stats?.cpu_usage?.total_usage ?? 0) - (s.precpu_stats?.cpu_usage?.total_usage ?? 0);
    const sysDelta = (s.cpu_stats?.system_cpu_usage ?? 0) - (s.precpu_stats?.system_cpu_usage ?? 0);
    const cpus = s.cpu_stats?.online_cpus || s.cpu_stats?.cpu_usage?.percpu_usage?.length || 1;
    const mem = s.memory_stats ?? {};
    const stat = (mem.stats ?? {}) as Record<string, number | undefined>;
    // The page cache is reclaimable; `docker stats` leaves it out the same way.
    const cache = stat.inactive_file ?? stat.total_inactive_file ?? stat.cache ?? 0;
    return {
      cpuPercent: cpuDelta > 0 && sysDelta > 0 ? Math.round((cpuDelta / sysDelta) * cpus * 10000) / 100 : 0,
      memoryBytes: Math.max(0, (mem.usage ?? 0) - cache),
      memoryLimitBytes: mem.limit ?? null,
      pids: s.pids_stats?.current ?? null,
    };
  }

  /** One idle sweep over this engine's Skilldock containers. */
  sweep(opts: SweepOptions = {}): Promise<SweepResult> {
    const adoptConfigIds = opts.adoptConfigIds ?? (this.opts.configId ? [this.opts.configId] : []);
    return sweepIdle(this.conn, { ...opts, adoptConfigIds }, { installationId: this.opts.installationId, activity: this.activity });
  }
}
