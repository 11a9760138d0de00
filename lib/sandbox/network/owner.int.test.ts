// Two replicas on one database and one engine: exactly one holds the engine's network enforcement;
// the other's sandbox start, policy change and full check reach it through the database; when the
// holder dies without releasing, the other takes over with the rules in the kernel throughout; and
// a second installation with the same table name is refused.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { sandboxConfigs } from '@/db/schema';
import { leaseHolder } from '@/lib/cluster/host-lease';
import { HostRequests } from '@/lib/cluster/host-requests';
import { hasCode } from '@/lib/core/errors';
import { enforcementProblem, NetworkEnforcer } from '@/lib/network/docker/enforcer';
import { listBridgeNetworks, removeBridgeNetwork } from '@/lib/network/docker/networks';
import { deleteTable, readTable } from '@/lib/network/docker/nft';
import { setElements } from '@/lib/network/docker/nft-json';
import { tableOwner } from '@/lib/network/docker/nft-owner';
import { type NetworkPolicy, OPEN_POLICY } from '@/lib/network/policy/types';
import { validatePolicy } from '@/lib/network/policy/validate';
import { CONFIG_LABEL } from '@/lib/sandbox/config/in-use';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { dockerConnection } from '@/lib/sandbox/docker/connection';
import { dbKind, type TestDatabase, testDatabaseUrl } from '@/test/helpers/db';
import { describeDocker, dockerHost } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { waitFor } from '@/test/helpers/services';
import { networkCheckProbes } from './check-probe';
import { enforcementHolder, enforcementOf } from './enforcement';
import { EnforcementOwner } from './owner';

const skip = process.getuid?.() !== 0 ? 'not root' : undefined;
// Long enough that a holder on a loaded 2-core machine still renews in time (a missed renewal hands
// the lease over and the test's holder is no longer the holder); the takeover test waits one TTL.
const TTL_MS = 4000;

interface Replica {
  id: string;
  requests: HostRequests;
  enforcer: NetworkEnforcer;
  owner: EnforcementOwner;
}

describeDocker('network enforcement held by one replica per engine', () => {
  const table = `skilldock_t${randomBytes(5).toString('hex')}`;
  const configId = `cfg${randomBytes(4).toString('hex')}`;
  const label = { 'io.skilldock.test': `own-${randomBytes(4).toString('hex')}`, [CONFIG_LABEL]: configId };
  const proxyPort = 30000 + (randomBytes(2).readUInt16BE(0) % 20000);
  const installation = randomBytes(6).toString('hex');
  const engine = dockerConnection({ host: dockerHost });
  let problem: string | null = skip ?? null;
  let tdb: TestDatabase;
  const dbs: Database[] = [];
  const replicas: Replica[] = [];
  let holder: Replica;
  let other: Replica;
  let backend: DockerBackend;
  let image = '';
  let sandboxId = '';

  const policy = (p: Partial<NetworkPolicy>): NetworkPolicy => {
    const r = validatePolicy('docker', { ...OPEN_POLICY, ...p });
    if (!r.policy) throw new Error(`test policy invalid: ${JSON.stringify(r.issues)}`);
    return r.policy;
  };
  const openReplicaDb = async (): Promise<Database> => {
    // PGlite has one process: both replicas share its handle; PostgreSQL gets a pool per replica.
    if (dbKind === 'pglite' && dbs[0]) return dbs[0];
    const d = await openDatabase({ databaseUrl: tdb.url, pgliteDir: tdb.dataDir ? path.join(tdb.dataDir, 'pglite') : '' });
    dbs.push(d);
    return d;
  };
  const replica = async (id: string, inst = installation): Promise<Replica> => {
    const database = await openReplicaDb();
    const requests = new HostRequests(database);
    const enforcer = new NetworkEnforcer({ table, proxyPort, dnsPort: 53, upstreams: ['127.0.0.1:9'], owner: inst });
    const owner = new EnforcementOwner({
      db: database.db,
      requests,
      enforcer,
      engine,
      replicaId: id,
      installationId: inst,
      leaseTtlMs: TTL_MS,
      requestTimeoutMs: 20_000,
    });
    const r = { id, requests, enforcer, owner };
    replicas.push(r);
    return r;
  };
  const networkKey = () => holder.enforcer.networks().find((n) => n.configId === configId)?.key;
  const deny4 = async () => setElements(await readTable(table), `d4_${networkKey()}`);

  beforeAll(async () => {
    problem ??= await enforcementProblem();
    if (problem) return;
    image = await ensureBusyboxImage(engine.api);
    tdb = await testDatabaseUrl();
    const first = await openReplicaDb();
    await migrateDatabase(first);
    await first.db.insert(sandboxConfigs).values({
      id: configId,
      name: configId,
      backend: 'docker',
      config: { host: dockerHost ?? '', templateId: image, networkMode: 'bridge' },
      networkPolicy: policy({ denyEgressByDefault: true }) as unknown as Record<string, unknown>,
      createdBy: 'test',
      updatedBy: 'test',
    });
    const a = await replica('replica-a');
    const b = await replica('replica-b');
    await Promise.all([a.owner.start(), b.owner.start()]);
  }, 120_000);

  afterAll(async () => {
    if (sandboxId) await backend.remove(sandboxId).catch(() => undefined);
    for (const r of replicas) await r.owner.stop().catch(() => undefined);
    // Only this test's network: it carries this test's table as its owner label.
    if (!problem) for (const n of await listBridgeNetworks(engine.api, table)) await removeBridgeNetwork(engine.api, n.name);
    if (!problem) await deleteTable(table);
    for (const r of replicas) await r.requests.stop();
    for (const d of dbs) await d.close().catch(() => undefined);
    await tdb?.cleanup();
  });

  it('exactly one replica holds the enforcement, and the view says which', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const held = replicas.filter((r) => r.owner.held);
    expect(held).toHaveLength(1);
    holder = held[0]!;
    other = replicas.find((r) => r !== holder)!;
    expect((await leaseHolder(dbs[0]!.db, holder.owner.key))?.holder).toBe(holder.id);
    expect(holder.owner.key).toBe(`network:${((await engine.api.info()) as { ID: string }).ID}:${table}`);
    const viewOf = (r: Replica) => enforcementHolder({ enforcer: r.enforcer, control: r.owner, owner: r.owner, problem: null }) ?? '';
    expect(viewOf(holder)).toContain(`Held by this replica (${holder.id})`);
    await waitFor(async () => viewOf(other).includes(`Held by replica ${holder.id}`), 'the other replica to see the holder');
    // The holder marked the table as this installation's.
    expect(await tableOwner(table)).toEqual({ exists: true, owner: installation });
  });

  it('a sandbox starts through the replica that does not hold the enforcement, its rules and listeners on the holder', async (ctx) => {
    if (problem) return ctx.skip(problem);
    backend = new DockerBackend({ host: dockerHost, configId, network: 'bridge', enforcer: other.owner });
    const sb = await backend.create({ image, labels: label, network: 'bridge', networkPolicy: policy({ denyEgressByDefault: true }) });
    sandboxId = sb.id;
    expect(holder.enforcer.networks().map((n) => n.configId)).toEqual([configId]);
    expect(other.enforcer.networks()).toEqual([]);
    const [probe] = networkCheckProbes({ enforcer: other.enforcer, control: other.owner, problem: null });
    const info = await backend.get(sandboxId);
    expect(await probe!.run(backend, info!)).toMatchObject({ status: 'pass', detail: { proxyOpen: false } });
  });

  it('a policy tightened through the non-holder is in the kernel table', async (ctx) => {
    if (problem) return ctx.skip(problem);
    expect(await deny4()).not.toContain('10.99.0.0/16');
    const tightened = policy({ denyEgressByDefault: true, denyOut: ['10.99.0.0/16'] });
    await dbs[0]!.db
      .update(sandboxConfigs)
      .set({ networkPolicy: tightened as unknown as Record<string, unknown> })
      .where(eq(sandboxConfigs.id, configId));
    expect(await other.owner.update(configId, tightened)).toBe(true);
    expect(await deny4()).toContain('10.99.0.0/16');
  });

  it('a holder killed without releasing is replaced after the lease expires, the table never leaving the kernel', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const before = (await leaseHolder(dbs[0]!.db, holder.owner.key))!.generation;
    const ruleKey = networkKey();
    let reads = 0;
    let absent = 0;
    let polling = true;
    const poller = (async () => {
      while (polling) {
        try {
          await readTable(table);
        } catch (e) {
          if (hasCode(e, 'not_found')) absent++;
          else throw e;
        }
        reads++;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await holder.owner.crash();
    await waitFor(async () => other.owner.held && other.enforcer.networks().length === 1, 'the other replica to take the enforcement over', 30_000);
    // One more read after the takeover's render, then the poller stops.
    const seen = reads;
    await waitFor(async () => reads > seen + 1, 'a read of the table after the takeover');
    polling = false;
    await poller;
    expect(absent).toBe(0);
    expect(reads).toBeGreaterThan(2);
    expect(await leaseHolder(dbs[0]!.db, other.owner.key)).toMatchObject({ holder: other.id, generation: before + 1 });
    // The new holder rendered the stored (tightened) policy, under the same network key.
    expect(other.enforcer.networks().find((n) => n.configId === configId)?.key).toBe(ruleKey);
    holder = other;
    expect(await deny4()).toContain('10.99.0.0/16');
    const [probe] = networkCheckProbes({ enforcer: other.enforcer, control: other.owner, problem: null });
    expect(await probe!.run(backend, (await backend.get(sandboxId))!)).toMatchObject({ status: 'pass' });
  });

  it('a policy saved on any replica without a request reaching the holder is put in force by it', async (ctx) => {
    if (problem) return ctx.skip(problem);
    expect(await deny4()).not.toContain('10.97.0.0/16');
    const saved = policy({ denyEgressByDefault: true, denyOut: ['10.99.0.0/16', '10.97.0.0/16'] });
    await dbs[0]!.db
      .update(sandboxConfigs)
      .set({ networkPolicy: saved as unknown as Record<string, unknown> })
      .where(eq(sandboxConfigs.id, configId));
    await waitFor(async () => (await deny4()).includes('10.97.0.0/16'), 'the holder to put the saved policy in force', 30_000);
  });

  it('a policy applied before its save commits is not undone by the refresh; one whose save never commits is, once settled', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const [row] = await dbs[0]!.db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, configId));
    const stored = row!.networkPolicy as unknown as NetworkPolicy;
    expect(await deny4()).not.toContain('10.95.0.0/16');
    // A save on its way: the rules are in force, the row still holds the previous policy.
    const saving = policy({ ...stored, denyOut: [...stored.denyOut, '10.95.0.0/16'] });
    expect(await other.owner.update(configId, saving)).toBe(true);
    expect(await deny4()).toContain('10.95.0.0/16');
    // The stored policy read in that window does not win while the change is younger than the period.
    expect(await holder.enforcer.refresh(configId, stored, 60_000)).toBe(false);
    expect(await deny4()).toContain('10.95.0.0/16');
    // The save never committed: once settled, the holder's own refresh puts the stored policy back.
    await waitFor(async () => !(await deny4()).includes('10.95.0.0/16'), 'the refresh to put the stored policy back', 30_000);
    expect(await holder.enforcer.refresh(configId, stored, 0)).toBe(false);
  });

  it('a request nobody serves fails with a clear error', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const r = replicas[0]!;
    await expect(
      r.requests.ask(
        'network:nobody:none',
        'update',
        { configId },
        { timeoutMs: 300, noHolder: () => 'no replica holds network enforcement for engine nobody' },
      ),
    ).rejects.toMatchObject({ code: 'unavailable', message: 'no replica holds network enforcement for engine nobody' });
  });

  it('a second installation with the same table name is refused and leaves the table alone', async (ctx) => {
    if (problem) return ctx.skip(problem);
    const stranger = await replica('replica-x', 'strangerinst');
    await stranger.owner.start();
    expect(stranger.owner.held).toBe(false);
    expect(stranger.owner.problem).toMatch(new RegExp(`belongs to another Skilldock installation \\(${installation}\\)`));
    const view = enforcementOf(
      { backend: 'docker', config: { networkMode: 'bridge' } },
      { enforcer: null, control: null, owner: stranger.owner, problem: stranger.owner.problem },
    );
    expect(view.enforcedBy).toBe('none');
    expect(view.enforcement).toContain('belongs to another Skilldock installation');
    expect(await tableOwner(table)).toEqual({ exists: true, owner: installation });
    expect(await deny4()).toContain('10.99.0.0/16');
  });

  it('stopping the holder releases the lease and keeps the rules in the kernel', async (ctx) => {
    if (problem) return ctx.skip(problem);
    await holder.owner.stop();
    expect(await leaseHolder(dbs[0]!.db, holder.owner.key)).toBeNull();
    expect(holder.enforcer.networks()).toEqual([]);
    expect(await tableOwner(table)).toEqual({ exists: true, owner: installation });
  });
});
