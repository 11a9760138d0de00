// The gateways domain as one service object, built by the composition root: the stored gateways, how
// a row becomes an access to its gateway, the connection test, drift, the sync target and a sync's
// preview or job, and the folder clients. Jobs and operations call these methods; nothing here knows
// which door a call came through.
import type { AppDb } from '@/db/client';
import type { StoredGatewayLocation, StoredGatewayStatus } from '@/db/schema';
import type { Actor } from '../auth/actor';
import { AppError, hasCode } from '../core/errors';
import type { SecretBox } from '../secrets/crypto';
import type { CatalogSnapshot } from '../skills/service/catalog';
import type { GatewayAccess } from './access';
import { type DesiredDeps, desiredKey } from './desired';
import { computeDrift } from './drift';
import { forgetFolderClient, listFolderClients } from './folder-clients';
import { LocalOpenClawAccess, validateLocal } from './openclaw/local-access';
import { checkStateDir } from './openclaw/state-dir';
import type { CreateGatewayInput, PatchGatewayInput } from './schema';
import {
  createGateway,
  deleteGateway,
  type GatewayRow,
  type GatewayStoreDeps,
  gatewayToken,
  gatewayView,
  listGatewayRows,
  loadGateway,
  patchGateway,
  recordGatewayState,
} from './store';
import { planFor, runSync, type SyncTarget } from './sync';

export interface GatewaysDeps {
  db: AppDb;
  box: SecretBox;
  snapshot: () => Promise<CatalogSnapshot>;
  /** Folders a local gateway's state folder must be inside (SKILLDOCK_GATEWAY_ROOTS). */
  roots: readonly string[];
  /** The server's home: a local gateway's HOME unless its location names one. */
  home: string;
  /** Reaches a gateway in a Docker container through the Engine API. */
  docker?: (loc: Extract<StoredGatewayLocation, { type: 'docker' }>) => Promise<GatewayAccess>;
  /** Reaches a gateway on another machine through its WebSocket RPC. */
  remote?: (url: string, token: string) => GatewayAccess;
  cliTimeoutMs?: number;
  /** Queues a sync job of the gateway (lib/gateways/jobs.ts); a sync already waiting absorbs it. */
  queueSync: (actor: Actor, gatewayId: string, reason: string) => Promise<{ id: string; coalesced: boolean }>;
  /** An agent's effective version, the one its folder clients should hold; throws for an unknown agent. */
  agentVersion: (agentId: string) => Promise<string>;
}

export class GatewaysService {
  constructor(readonly deps: GatewaysDeps) {}

  get desiredDeps(): DesiredDeps {
    return { db: this.deps.db, box: this.deps.box, snapshot: this.deps.snapshot };
  }

  get storeDeps(): GatewayStoreDeps {
    return { db: this.deps.db, box: this.deps.box, checkLocation: (loc) => this.checkLocation(loc) };
  }

  async list() {
    return { items: (await listGatewayRows(this.deps.db)).map(gatewayView), roots: [...this.deps.roots] };
  }

  async get(id: string) {
    return gatewayView(await loadGateway(this.deps.db, id));
  }

  create(actor: Actor, input: CreateGatewayInput) {
    return createGateway(this.storeDeps, actor, input);
  }

  update(actor: Actor, id: string, input: PatchGatewayInput) {
    return patchGateway(this.storeDeps, actor, id, input);
  }

  remove(actor: Actor, id: string) {
    return deleteGateway(this.storeDeps, actor, id);
  }

  /** Checks a location before it is stored. */
  async checkLocation(loc: StoredGatewayLocation): Promise<void> {
    if (loc.type === 'local') await checkStateDir(loc.stateDir, this.deps.roots);
    else if (loc.type === 'docker' && !this.deps.docker) throw new AppError('unavailable', 'This server cannot reach gateways in Docker containers.');
    else if (loc.type === 'remote' && !this.deps.remote) throw new AppError('unavailable', 'This server cannot reach remote gateways.');
  }

  async accessFor(row: GatewayRow): Promise<GatewayAccess> {
    const loc = row.location;
    if (loc.type === 'local') {
      await checkStateDir(loc.stateDir, this.deps.roots);
      return new LocalOpenClawAccess(loc, { home: this.deps.home, ...(this.deps.cliTimeoutMs ? { timeoutMs: this.deps.cliTimeoutMs } : {}) });
    }
    if (loc.type === 'docker') {
      if (!this.deps.docker) throw new AppError('unavailable', 'This server cannot reach gateways in Docker containers.');
      return this.deps.docker(loc);
    }
    if (!this.deps.remote) throw new AppError('unavailable', 'This server cannot reach remote gateways.');
    const token = await gatewayToken(this.deps.box, row);
    if (!token) throw new AppError('invalid_state', 'This remote gateway has no token; edit it and enter the token.');
    return this.deps.remote(loc.url, token);
  }

  /** What a sync needs of a row and its access. */
  syncTarget(row: GatewayRow, access: GatewayAccess): SyncTarget {
    const loc = row.location;
    const stateDir = loc.type === 'remote' ? '~/.openclaw' : loc.stateDir;
    const home = loc.type === 'local' ? (loc.home ?? this.deps.home) : '/root';
    const secrets = access.secretsFile?.(stateDir) ?? null;
    return {
      access,
      agentIds: row.agentIds,
      owned: row.owned,
      stateDir,
      home,
      secrets,
      writesViaCli: access instanceof LocalOpenClawAccess ? access.writeVia === 'cli' : loc.type !== 'remote',
      box: this.deps.box,
    };
  }

  async withAccess<T>(row: GatewayRow, fn: (a: GatewayAccess) => Promise<T>): Promise<T> {
    const access = await this.accessFor(row);
    try {
      return await fn(access);
    } finally {
      await access.close().catch(() => {});
    }
  }

  /** Test connection: the version, the config read and (where the CLI runs) validated. Recorded on the row. */
  async test(id: string): Promise<StoredGatewayStatus> {
    const row = await loadGateway(this.deps.db, id);
    const status: StoredGatewayStatus = {
      checkedAt: new Date().toISOString(),
      reachable: false,
      configValid: null,
      version: null,
      readOnly: false,
      error: null,
    };
    try {
      await this.withAccess(row, async (a) => {
        status.version = await a.version();
        status.reachable = true;
        const read = await a.readConfig();
        status.readOnly = !read.writable;
        status.configValid = true;
        if (a instanceof LocalOpenClawAccess) {
          const v = await validateLocal(a);
          if (v && !v.valid) [status.configValid, status.error] = [false, v.message];
        }
      });
    } catch (e) {
      status.error = e instanceof Error ? e.message : String(e);
      if (status.reachable && hasCode(e, 'validation')) status.configValid = false;
    }
    await recordGatewayState(this.deps.db, id, { status });
    return status;
  }

  /** Asks the gateway what each linked agent sees and compares it with Skilldock (recorded on the row). */
  async checkDrift(id: string) {
    const row = await loadGateway(this.deps.db, id);
    const drift = await this.withAccess(row, async (a) => {
      const t = this.syncTarget(row, a);
      const { desired, plan } = await planFor(this.desiredDeps, t);
      const known = desired.agents.filter((x) => x.exists).map((x) => x.id);
      const answers = known.length ? await a.agentSkills(known) : [];
      return computeDrift(desired, plan, answers);
    });
    await recordGatewayState(this.deps.db, id, { drift });
    return drift;
  }

  desiredKey(row: GatewayRow) {
    return desiredKey(this.desiredDeps, row.agentIds);
  }

  /** What a sync would change now: computed against the gateway's config, nothing written. */
  async previewSync(id: string) {
    const row = await loadGateway(this.deps.db, id);
    const out = await this.withAccess(row, (a) => runSync(this.desiredDeps, this.syncTarget(row, a), { dryRun: true }));
    return {
      dryRun: true as const,
      changes: out.changes,
      configChanges: out.plan.configChanges,
      folders: out.plan.folders,
      conflicts: out.plan.conflicts,
      notes: out.plan.notes,
      readOnly: out.readOnly,
      patch: out.patchText,
    };
  }

  /** A sync of an existing gateway as a job (a person's "sync now"). */
  async syncNow(actor: Actor, id: string) {
    const row = await loadGateway(this.deps.db, id);
    const job = await this.deps.queueSync(actor, row.id, 'sync now');
    return { dryRun: false as const, jobId: job.id, coalesced: job.coalesced };
  }

  /** The folder clients (of one agent, or all), each with whether it holds its agent's current version. */
  async folderClients(agentId?: string) {
    const current = (id: string) => this.deps.agentVersion(id).catch(() => null);
    return { clients: await listFolderClients(this.deps.db, current, agentId) };
  }

  forgetFolderClient(actor: Actor, agentId: string, clientId: string) {
    return forgetFolderClient(this.deps.db, actor, agentId, clientId);
  }
}
