// The idle sweep among replicas and installations, on a real engine and a real database: the sweep
// of one installation never touches another's containers, volumes or networks, nor an unlabelled
// container made before the installation label unless it names a config of this database; a lease
// of another replica keeps a container, an expired one of a dead holder does not; another replica's
// last use counts; two first starts for one agent, on two replicas, make one sandbox.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '@/db/client';
import { sandboxConfigs, sandboxLeases } from '@/db/schema';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ALL_PERMISSIONS } from '@/lib/auth/permissions';
import { LABEL_INSTALLATION } from '@/lib/cluster/installation';
import { SandboxLeaseStore } from '@/lib/cluster/sandbox-lease';
import { NetworkEnforcer } from '@/lib/network/docker/enforcer';
import { ensureBridgeNetwork, networkKey, networkName } from '@/lib/network/docker/networks';
import { createConfig } from '@/lib/sandbox/config/store';
import type { ConfigRow } from '@/lib/sandbox/config/view';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { runningOrStart } from '../instances/claim';
import { InstanceLocks } from '../instances/locks';
import { agentPrincipal } from '../instances/principal';
import { backendFor, type InstanceDeps, runningFor } from '../instances/service';
import { SandboxActivity } from './activity';
import { DockerBackend } from './backend';

const actor: Actor = { ...systemActor, kind: 'user', label: 'cluster-sweep-test', permissions: new Set(ALL_PERMISSIONS) };
const RUN = randomBytes(6).toString('hex');
const TEST_LABEL = 'io.skilldock.test-cluster-sweep';
const labels = { [TEST_LABEL]: RUN };
/** The other installation on the same engine (its own database, so its own id). */
const OTHER = `other${RUN.slice(0, 7)}`;
const later = () => Date.now() + 3600_000;

describeDocker('idle sweep among replicas and installations', () => {
  const docker = new Docker();
  let image = '';
  let ts: TestServices;
  let row: ConfigRow;
  /** This installation's backend as the services build it: database leases, its installation id. */
  let mine: DockerBackend;
  let other: DockerBackend;
  let legacy: DockerBackend;
  let deadHolder: SandboxLeaseStore;
  let liveHolder: SandboxLeaseStore;
  let secondDb: Database | undefined;
  const table = `skilldock_t${randomBytes(5).toString('hex')}`;
  let enforcer: NetworkEnforcer | undefined;

  const exists = async (id: string) => (await docker.listContainers({ all: true, filters: { id: [id] } })).length === 1;
  const volumesOf = async (installation: string) =>
    ((await docker.listVolumes({ filters: { label: [`${TEST_LABEL}=${RUN}`, `${LABEL_INSTALLATION}=${installation}`] } })).Volumes ?? []).map((v) => v.Name);

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    ts = await startTestServices({ worker: false });
    const s = ts.services;
    const cfg = await createConfig({ db: s.database.db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } }, actor, {
      name: 'cluster-sweep-test',
      backend: 'docker',
      description: '',
      config: { image, host: process.env.DOCKER_HOST ?? '' },
    } as never);
    await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
    [row] = (await s.database.db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, cfg.id))) as ConfigRow[];
    mine = backendFor(s.sandboxes, row) as DockerBackend;
    other = new DockerBackend({ host: process.env.DOCKER_HOST, installationId: OTHER, activity: new SandboxActivity() });
    legacy = new DockerBackend({ host: process.env.DOCKER_HOST, activity: new SandboxActivity() });
    deadHolder = new SandboxLeaseStore(s.database.db, `dead-replica-${RUN}`);
    liveHolder = new SandboxLeaseStore(s.database.db, `replica-a-${RUN}`);
  });

  afterAll(async () => {
    await liveHolder?.close();
    await enforcer?.close({ removeRules: true });
    for (const c of await docker.listContainers({ all: true, filters: { label: [`${TEST_LABEL}=${RUN}`] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
    if (row)
      for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.config-id=${row.id}`] } }))
        await docker.getContainer(c.Id).remove({ force: true, v: true });
    await docker.pruneVolumes({ filters: { label: [`${TEST_LABEL}=${RUN}`] } }).catch(() => undefined);
    for (const n of await docker.listNetworks({ filters: { label: [`io.skilldock.network-owner=${table}`] } }))
      await docker
        .getNetwork(n.Id)
        .remove()
        .catch(() => undefined);
    await secondDb?.close();
    await ts?.stop();
  });

  it("never removes another installation's containers and volumes, nor an unlabelled one it cannot claim; removes its own", async () => {
    // Read-only rootfs: each container gets a labelled workspace volume.
    const own = await mine.withSettings({ readOnlyRootfs: true }).create({ image, labels, idleTtlSeconds: 1 });
    const foreign = await other.withSettings({ readOnlyRootfs: true }).create({ image, labels, idleTtlSeconds: 1 });
    // Made before the installation label: one names a config of this database (so it is this one's), one names none.
    const adopted = await new DockerBackend({ host: process.env.DOCKER_HOST, configId: row.id, activity: new SandboxActivity() }).create({
      image,
      labels,
      idleTtlSeconds: 1,
    });
    const old = await legacy.create({ image, labels, idleTtlSeconds: 1 });
    expect(own.labels[LABEL_INSTALLATION]).toBe(ts.services.installationId);
    expect(old.labels[LABEL_INSTALLATION]).toBeUndefined();
    expect(adopted.labels[LABEL_INSTALLATION]).toBeUndefined();
    expect(await volumesOf(OTHER)).toHaveLength(1);
    expect(await volumesOf(ts.services.installationId)).toHaveLength(1);
    // Nor does it list or resolve them.
    expect((await mine.list(labels)).map((s) => s.id).sort()).toEqual([own.id, adopted.id].sort());
    expect(await mine.get(foreign.id)).toBeNull();
    expect(await mine.get(old.id)).toBeNull();

    const r = await mine.sweep({ now: later, labels });
    expect(r.removed.sort()).toEqual([own.id, adopted.id].sort());
    expect(await exists(own.id)).toBe(false);
    expect(await volumesOf(ts.services.installationId)).toEqual([]);
    expect(await exists(foreign.id)).toBe(true);
    expect(await volumesOf(OTHER)).toHaveLength(1);
    expect(await exists(old.id)).toBe(true);

    // The other installation's sweep, in turn, removes its own and leaves the unlabelled one too.
    expect((await other.sweep({ now: later, labels })).removed).toEqual([foreign.id]);
    expect(await volumesOf(OTHER)).toEqual([]);
    expect(await exists(old.id)).toBe(true);
    // A backend that knows no installation cannot tell whose a container is: it sweeps nothing.
    expect((await legacy.sweep({ now: later, labels })).removed).toEqual([]);
    expect(await exists(old.id)).toBe(true);
  });

  it("reconciling networks removes its own orphans only: never another installation's or an unlabelled one", async (ctx) => {
    if (ts.services.network.enforcer === null) return ctx.skip(ts.services.network.problem ?? 'no enforcement');
    const own = await ensureBridgeNetwork(docker, table, `cfgown${RUN}`, ts.services.installationId);
    const foreign = await ensureBridgeNetwork(docker, table, `cfgoth${RUN}`, OTHER);
    const old = await ensureBridgeNetwork(docker, table, `cfgold${RUN}`);
    expect([own.installationId, foreign.installationId, old.installationId]).toEqual([ts.services.installationId, OTHER, null]);
    enforcer = new NetworkEnforcer({ table, installationId: ts.services.installationId, proxyPort: 1, dnsPort: 1, upstreams: ['127.0.0.1:9'] });
    // No config of this database owns any of them.
    expect(await enforcer.reconcile(docker, async () => null)).toBe(0);
    const left = (await docker.listNetworks({ filters: { label: [`io.skilldock.network-owner=${table}`] } })).map((n) => n.Name).sort();
    expect(left).toEqual([networkName(networkKey(table, `cfgold${RUN}`)), networkName(networkKey(table, `cfgoth${RUN}`))].sort());
  });

  it('keeps a container another replica holds a lease on; an expired lease of a dead holder stops protecting', async () => {
    const held = await mine.create({ image, labels, idleTtlSeconds: 1 });
    const abandoned = await mine.create({ image, labels, idleTtlSeconds: 1 });
    const lease = await liveHolder.hold(held.id, 'terminal');
    // A holder that died: its row stays in the table, but its expiry has passed.
    await ts.services.database.db
      .insert(sandboxLeases)
      .values({ id: `terminal:dead-${RUN}`, sandboxKey: abandoned.id, holder: deadHolder.holder, reason: 'terminal', expiresAt: new Date(Date.now() - 1000) });
    const r = await mine.sweep({ now: later, labels });
    expect(r.removed).toEqual([abandoned.id]);
    expect(r.leased).toBe(1);
    expect(await exists(held.id)).toBe(true);
    // Its use ends: the row goes, and the use counts as activity on every replica. Stamped a minute
    // ahead, so only that row (not this process's own memory of the start) keeps it at half a minute on.
    await liveHolder.release(lease, held.id, new Date(Date.now() + 60_000));
    const kept = await mine.sweep({ now: () => Date.now() + 30_000, labels });
    expect(kept.removed).toEqual([]);
    expect(await exists(held.id)).toBe(true);
    expect((await mine.sweep({ now: later, labels })).removed).toEqual([held.id]);
    // Its activity row is dropped with it.
    const rows = await ts.services.database.db.select().from(sandboxLeases).where(eq(sandboxLeases.sandboxKey, held.id));
    expect(rows).toEqual([]);
  });

  it('renews a held lease past its TTL and deletes it on close', async () => {
    const short = new SandboxLeaseStore(ts.services.database.db, `replica-short-${RUN}`, 1500);
    const id = await short.hold(`key-${RUN}`, 'exec');
    const expiry = async () =>
      (await ts.services.database.db.select({ e: sandboxLeases.expiresAt }).from(sandboxLeases).where(eq(sandboxLeases.id, id)))[0]?.e.getTime();
    const first = (await expiry()) as number;
    const end = Date.now() + 20_000;
    while (((await expiry()) ?? 0) <= first && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(await expiry()).toBeGreaterThan(first);
    await short.close();
    expect(await expiry()).toBeUndefined();
  });

  it('two concurrent first starts for one agent, on two replicas, start one sandbox', async () => {
    const s = ts.services;
    // A second replica: its own connection to the same database where the engine allows one (PGlite has one process).
    secondDb = ts.databaseUrl ? await openDatabase({ databaseUrl: ts.databaseUrl, pgliteDir: '', max: 2 }) : undefined;
    const db2 = secondDb ?? s.database;
    const replicaB: InstanceDeps = {
      ...s.sandboxes,
      db: db2.db,
      backendCache: new Map(),
      activity: new SandboxActivity(new SandboxLeaseStore(db2.db, `replica-b-${RUN}`)),
      lock: (key, fn) => db2.withLock(key, fn),
      locks: new InstanceLocks(),
    };
    const principal = agentPrincipal(`agent-${RUN}`);
    const ids = await Promise.all([
      runningOrStart(s.sandboxes, actor, row.id, principal),
      runningOrStart(replicaB, actor, row.id, principal),
      runningOrStart(s.sandboxes, actor, row.id, principal),
      runningOrStart(replicaB, actor, row.id, principal),
    ]);
    expect(new Set(ids).size).toBe(1);
    expect(await runningFor(s.sandboxes, row.id, principal)).toEqual([ids[0]]);
  });
});
