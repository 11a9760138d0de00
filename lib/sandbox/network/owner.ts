// Network enforcement of one Docker engine owned by one replica at a time: the holder of the lease
// `network:<engine id>:<nft table>` renders the table, runs the proxies and DNS forwarders and
// follows the engine's events; the others forward attach, update, detach and describe to it
// through the database. A takeover re-renders the table in one transaction, so the rules that the
// previous holder left in the kernel are replaced in place, never removed first.
import type Docker from 'dockerode';
import { inArray } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import { HostLease, leaseHolder } from '../../cluster/host-lease';
import type { HostRequests } from '../../cluster/host-requests';
import { AppError } from '../../core/errors';
import { describeError, logger } from '../../core/logger';
import type { Attachment, NetworkEnforcer } from '../../network/docker/enforcer';
import { foreignTableProblem } from '../../network/docker/nft-owner';
import { storedPolicy } from '../../network/policy/open';
import type { NetworkPolicy } from '../../network/policy/types';
import { DockerClients, type DockerConnection } from '../docker/connection';
import { localControl, type NetworkControl } from './control';
import { watchNetworkEvents } from './engine-events';
import { reconcileNetworks } from './reconcile';

export interface EnforcementOwnerOptions {
  db: AppDb;
  requests: HostRequests;
  enforcer: NetworkEnforcer;
  /** The local engine whose sandbox networks this enforcement serves. */
  engine: DockerConnection;
  replicaId: string;
  installationId: string;
  leaseTtlMs?: number;
  /** How long a forwarded request waits for the holder's answer. */
  requestTimeoutMs?: number;
}

export interface EnforcementHolder {
  replica: string | null;
  self: boolean;
}

export class EnforcementOwner implements NetworkControl {
  readonly table: string;
  readonly proxyPort: number;
  readonly dnsPort: number;
  key = '';
  engineId = '';
  /** Why this replica does not take part (another installation owns the table), or null. */
  problem: string | null = null;
  private lease: HostLease | undefined;
  private readonly local: NetworkControl;
  private stopWatch: (() => void)[] = [];
  private lastHolder: string | null = null;
  private holderTimer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private binding: Promise<void> | undefined;
  private engineApi: Docker;
  private refreshTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The engines of the local Docker configs, asked at each reconcile. */
  private readonly clients = new DockerClients();

  constructor(private readonly opts: EnforcementOwnerOptions) {
    this.local = localControl(opts.enforcer);
    this.engineApi = opts.engine.api;
    this.table = this.local.table;
    this.proxyPort = this.local.proxyPort;
    this.dnsPort = this.local.dnsPort;
  }

  get held(): boolean {
    return this.lease?.held ?? false;
  }

  /** Which replica holds the enforcement, as last seen (at most a lease third old). */
  get holder(): EnforcementHolder {
    if (this.held) return { replica: this.opts.replicaId, self: true };
    return { replica: this.lastHolder, self: false };
  }

  /**
   * Refuses a table of another installation; otherwise competes for the lease (the first try
   * awaited). An engine that does not answer yet is asked again until it does.
   */
  async start(): Promise<void> {
    if (this.closed) return;
    try {
      await this.bind();
    } catch (e) {
      if (this.closed) return;
      if (!this.retry) logger.warn('the local Docker engine did not answer; network enforcement waits for it', { err: describeError(e) });
      this.retry = setTimeout(() => void this.start(), 5000);
      this.retry.unref();
    }
  }

  /**
   * Learns the engine's id and competes for its lease, once. The engine is the configured one, or
   * (when that one does not answer) the engine of the first sandbox network asked for.
   */
  private bind(api?: Docker): Promise<void> {
    if (this.key) return Promise.resolve();
    this.binding ??= this.begin(api ?? this.opts.engine.api).finally(() => {
      this.binding = undefined;
    });
    return this.binding;
  }

  private async begin(api: Docker): Promise<void> {
    const info = (await api.info()) as { ID?: string };
    if (this.key || this.closed) return;
    this.engineApi = api;
    this.engineId = info.ID || this.opts.engine.endpoint;
    this.key = `network:${this.engineId}:${this.table}`;
    this.problem = await foreignTableProblem(this.table, this.opts.installationId);
    if (this.problem) return;
    this.lease = new HostLease({
      db: this.opts.db,
      key: this.key,
      holder: this.opts.replicaId,
      ...(this.opts.leaseTtlMs !== undefined ? { ttlMs: this.opts.leaseTtlMs } : {}),
      onAcquire: () => this.acquired(),
      onLose: () => this.lost(),
    });
    await this.lease.start();
    await this.refreshHolder();
    this.holderTimer = setInterval(() => void this.refreshHolder(), Math.max(200, Math.floor(this.lease.ttlMs / 3)));
    this.holderTimer.unref();
  }

  private async refreshHolder(): Promise<void> {
    const h = await leaseHolder(this.opts.db, this.key).catch(() => null);
    this.lastHolder = h && !h.expired ? h.holder : null;
  }

  private async acquired(): Promise<void> {
    // Another installation may have made the table since boot: never render over it.
    const problem = await foreignTableProblem(this.table, this.opts.installationId).catch((e) => describeError(e));
    if (problem) {
      this.problem = problem;
      logger.error('network enforcement refused', { reason: problem });
      return;
    }
    const { db, enforcer } = this.opts;
    try {
      const engines = await reconcileNetworks(db, enforcer, this.clients);
      // Also when no config has a network: the table is then this installation's, marked as such.
      await enforcer.rerender();
      const reconcile = () => reconcileNetworks(db, enforcer, this.clients).then(() => undefined);
      const apis = engines.length ? engines.map((c) => c.api) : [this.engineApi];
      for (const api of apis) this.stopWatch.push(watchNetworkEvents(api, enforcer, reconcile));
      logger.info('network enforcement taken over', { key: this.key, networks: enforcer.networks().length });
    } catch (e) {
      logger.error('network enforcement could not re-render its rules after taking the lease', { key: this.key, err: describeError(e) });
    }
    await this.opts.requests.serve(this.key, (kind, payload) => this.run(kind, payload));
    // A policy saved on a replica whose forwarded update was lost is still put in force within a lease lifetime.
    this.refreshTimer = setInterval(() => void this.refresh(), this.refreshMs());
    this.refreshTimer.unref();
  }

  private refreshMs(): number {
    return Math.max(1000, this.lease?.ttlMs ?? 15_000);
  }

  /** Stored policies that differ from those in force are applied; networks missing here are reconciled. */
  private async refresh(): Promise<void> {
    if (!this.held) return;
    const { db, enforcer } = this.opts;
    try {
      await reconcileNetworks(db, enforcer, this.clients);
      const ids = enforcer.networks().map((n) => n.configId);
      if (!ids.length) return;
      const rows = await db.select().from(sandboxConfigs).where(inArray(sandboxConfigs.id, ids));
      // A policy put in force within the last period may belong to a save that has not committed yet.
      const settledMs = this.refreshMs();
      for (const row of rows) {
        if (!this.held) return;
        if (await enforcer.refresh(row.id, storedPolicy(row), settledMs))
          logger.info('a saved network policy was put in force by the refresh', { config: row.id });
      }
    } catch (e) {
      logger.warn('network policies could not be refreshed', { key: this.key, err: describeError(e) });
    }
  }

  /** Listeners stop; the rules stay in the kernel for the next holder to replace. */
  private async lost(): Promise<void> {
    clearInterval(this.refreshTimer);
    this.opts.requests.unserve(this.key);
    for (const s of this.stopWatch.splice(0)) s();
    await this.opts.enforcer.close();
  }

  /** A forwarded request, run by the holder on its own engine. */
  private run(kind: string, payload: unknown): Promise<unknown> {
    const p = payload as { configId: string; policy?: NetworkPolicy };
    const docker = this.engineApi;
    switch (kind) {
      case 'attach':
        return this.local.attach(docker, p.configId, p.policy!);
      case 'update':
        return this.local.update(p.configId, p.policy!);
      case 'detach':
        return this.local.detach(docker, p.configId);
      case 'describe':
        return this.local.describe(p.configId);
      default:
        throw new Error(`unknown network request "${kind}"`);
    }
  }

  private async forward<T>(kind: string, payload: { configId: string; policy?: NetworkPolicy }): Promise<T> {
    if (!this.key)
      throw new AppError('unavailable', 'The local Docker engine has not answered yet, so no replica holds its network enforcement: try again once it is up.');
    if (this.problem) throw new AppError('network_unenforceable', this.problem);
    return (await this.opts.requests.ask(this.key, kind, payload, {
      timeoutMs: this.opts.requestTimeoutMs ?? 30_000,
      noHolder: async () => {
        const h = await leaseHolder(this.opts.db, this.key).catch(() => null);
        const who = h ? ` (last holder: replica ${h.holder}${h.expired ? ', lease expired' : ''})` : '';
        return `No replica holds network enforcement for engine ${this.engineId}${who}: the network change was not made. Check that a replica running as root with nft is up on that host.`;
      },
    })) as T;
  }

  async attach(docker: Docker, configId: string, policy: NetworkPolicy): Promise<Attachment> {
    if (!this.key) await this.bind(docker).catch((e) => logger.warn('the sandbox engine did not answer', { err: describeError(e) }));
    return this.held ? this.local.attach(docker, configId, policy) : this.forward('attach', { configId, policy });
  }

  update(configId: string, policy: NetworkPolicy): Promise<boolean> {
    // No engine known yet: no network of this replica's can exist, and the holder (once there is one)
    // puts the stored policy in force at its next refresh.
    if (!this.key) return Promise.resolve(false);
    return this.held ? this.local.update(configId, policy) : this.forward('update', { configId, policy });
  }

  async detach(docker: Docker, configId: string): Promise<void> {
    if (!this.key) await this.bind(docker).catch(() => undefined);
    return this.held ? this.local.detach(docker, configId) : this.forward('detach', { configId });
  }

  describe(configId: string): ReturnType<NetworkControl['describe']> {
    return this.held ? this.local.describe(configId) : this.forward('describe', { configId });
  }

  /** Gives the lease up and stops the listeners; the rules stay unless `close` says otherwise (tests, uninstall). */
  async stop(close: Parameters<NetworkEnforcer['close']>[0] = {}): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.holderTimer);
    clearInterval(this.refreshTimer);
    this.opts.requests.unserve(this.key);
    for (const s of this.stopWatch.splice(0)) s();
    await this.lease?.stop();
    await this.opts.enforcer.close(close);
  }

  /** As if the process were killed: no release, no table change; listeners stop (tests of a takeover). */
  async crash(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.holderTimer);
    clearInterval(this.refreshTimer);
    this.lease?.abandon();
    this.opts.requests.unserve(this.key);
    for (const s of this.stopWatch.splice(0)) s();
    await this.opts.enforcer.close();
  }
}
