// Artifacts kept on a real engine with the offline busybox image: what a sandbox leaves in
// /workspace/output is collected before a next_turn recycle, a remove and the idle sweep, read out
// through the engine's archive API only, capped, served by the REST doors, and removed by retention.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, blobs, sandboxArtifactCollections, sandboxArtifactFiles, sandboxConfigs } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { ROLE_PERMISSIONS } from '@/lib/auth';
import type { Actor } from '@/lib/auth/actor';
import { route } from '@/lib/http/route';
import { activateImage, planImage } from '@/lib/sandbox/images/images';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { CONFIG_LABEL } from '../config/in-use';
import { createConfig, loadRow } from '../config/store';
import { sweepDockerEngines } from '../docker/sweep-schedule';
import { backendFor, execInInstance, removeInstance, startInstance } from '../instances/service';
import { pruneArtifacts } from './retention';
import type { ArtifactList } from './schema';
import { collectBeforeSweep } from './sweep-hook';

const RUN = randomBytes(5).toString('hex');

describeDocker('artifacts kept before recycle and removal', () => {
  const docker = new Docker();
  let ts: TestServices;
  let image = '';
  let operator: { token: string; actor: Actor };
  let viewer: { token: string; actor: Actor };
  const configs: string[] = [];
  const refs: string[] = [];
  const db = () => ts.services.database.db;
  const deps = () => ts.services.sandboxes;
  // Bytes of every value, so a text conversion anywhere on the way would show.
  const binary = randomBytes(300_000);
  let cfgA = '';
  let replacementA = '';
  const writeBinary = async (configId: string, id: string) =>
    backendFor(deps(), await loadRow(db(), configId)).writeFile(sandboxOf(id), '/workspace/output/data.bin', binary);

  async function newConfig(name: string, config: Record<string, unknown> = {}): Promise<string> {
    const s = ts.services;
    const cfg = await createConfig(
      { db: s.database.db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } },
      operator.actor,
      {
        name: `${name}-${RUN}`,
        backend: 'docker',
        description: '',
        config: { image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: 96, pidsLimit: 64, cpuLimit: 0.5, networkMode: 'none', ...config },
      } as never,
    );
    await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
    configs.push(cfg.id);
    return cfg.id;
  }

  async function activateSnapshot(configId: string) {
    const planned = await planImage(db(), configId);
    refs.push(planned.plannedRef);
    const c = await docker.createContainer({
      Image: image,
      Entrypoint: ['sh', '-c'],
      Cmd: ['echo next > /marker'],
      Labels: { 'skilldock.test': `artifacts-${RUN}` },
    });
    await c.start();
    await c.wait();
    const colon = planned.plannedRef.lastIndexOf(':');
    await c.commit({ repo: planned.plannedRef.slice(0, colon), tag: planned.plannedRef.slice(colon + 1) });
    await c.remove({ force: true });
    const committed = await docker.getImage(planned.plannedRef).inspect();
    await activateImage(db(), planned.id, { imageId: committed.Id });
  }

  const sh = (id: string, script: string) => execInInstance(deps(), operator.actor, id, { argv: ['sh', '-c', script] });
  const sandboxOf = (id: string) => id.split('~')[1];

  async function call(name: keyof typeof ops, token: string, path: string, params: Record<string, string>) {
    return route(ops[name] as never)(new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${token}` } }), {
      params: Promise.resolve(params),
    });
  }
  async function listOf(id: string, query = '', token = viewer.token): Promise<ArtifactList> {
    const res = await call('listInstanceArtifacts', token, `/api/v1/sandboxes/${encodeURIComponent(id)}/artifacts${query}`, { id });
    expect(res.status).toBe(200);
    return (await res.json()) as ArtifactList;
  }
  async function download(fileId: string, token = operator.token) {
    return call('downloadSandboxArtifact', token, `/api/v1/sandbox-artifacts/${fileId}/content`, { fileId });
  }

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    ts = await startTestServices({ worker: false });
    setServices(Promise.resolve(ts.services));
    operator = await apiUser(ts.services, { email: 'operator@artifacts.test', role: 'operator', tokenName: 'op', permissions: [...ROLE_PERMISSIONS.operator] });
    viewer = await apiUser(ts.services, { email: 'viewer@artifacts.test', role: 'viewer', tokenName: 'v', permissions: [...ROLE_PERMISSIONS.viewer] });
  }, 120_000);

  afterAll(async () => {
    const labels = [`skilldock.test=artifacts-${RUN}`, ...configs.map((c) => `${CONFIG_LABEL}=${c}`)];
    for (const l of labels)
      for (const c of await docker.listContainers({ all: true, filters: { label: [l] } }))
        await docker
          .getContainer(c.Id)
          .remove({ force: true, v: true })
          .catch(() => {});
    for (const ref of refs)
      await docker
        .getImage(ref)
        .remove({ force: true })
        .catch(() => {});
    await ts?.stop();
  });

  describe('a next_turn recycle', () => {
    let first = '';
    let replacement = '';

    it('collects /workspace/output first: the exact bytes are downloadable after the recycle', async () => {
      cfgA = await newConfig('artifacts-a');
      first = (await startInstance(deps(), operator.actor, cfgA)).id;
      await writeBinary(cfgA, first);
      const made = await sh(
        first,
        'mkdir -p /workspace/output/sub && printf "hello\\n" > /workspace/output/sub/hello.txt && ln -s /etc/passwd /workspace/output/passwd-link && ls -la /workspace/output',
      );
      expect(made.exitCode).toBe(0);
      expect(made.stdout).toContain('passwd-link -> /etc/passwd');

      await activateSnapshot(cfgA);
      const r = await sh(first, 'cat /marker; ls /workspace/output | wc -l');
      expect(r.stdout).toBe('next\n0\n');
      replacement = r.recycled!.to;
      replacementA = replacement;
      expect(replacement).not.toBe(first);

      // Listed under the new id too: a session is the chain of recycles.
      const list = await listOf(replacement);
      expect(list.items.map((f) => f.path).sort()).toEqual(['data.bin', 'sub/hello.txt']);
      expect(list.total).toBe(2);
      expect(list.collections).toHaveLength(1);
      expect(list.collections[0]).toMatchObject({ instanceId: first, replacedBy: replacement, trigger: 'next_turn', fileCount: 2, sessionId: first });
      expect(list.collections[0].totalBytes).toBe(binary.length + 6);

      const data = list.items.find((f) => f.path === 'data.bin')!;
      const res = await download(data.id);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="data.bin"; filename*=UTF-8''data.bin`);
      expect(Buffer.from(await res.arrayBuffer()).equals(binary)).toBe(true);
      const hello = list.items.find((f) => f.path === 'sub/hello.txt')!;
      expect(await (await download(hello.id)).text()).toBe('hello\n');
    }, 180_000);

    it('does not follow the symlink to /etc/passwd, and says it left it out', async () => {
      const [c] = (await listOf(first, '?scope=sandbox')).collections;
      expect(c.status).toBe('partial');
      expect(c.skipped).toEqual({ symlink: 1 });
      expect(c.note).toMatch(/1 symbolic link\(s\), not followed/);
      const rows = await db().select().from(sandboxArtifactFiles).where(eq(sandboxArtifactFiles.collectionId, c.id));
      expect(rows.map((r) => r.name).sort()).toEqual(['data.bin', 'hello.txt']);
      // No stored file holds a passwd line.
      for (const r of rows) expect(Buffer.from(await (await download(r.id)).arrayBuffer()).includes('root:x:0:0')).toBe(false);
    });

    it('searches by file name and pages; the collection was audited as the system’s write', async () => {
      expect((await listOf(replacement, '?q=HELLO')).items.map((f) => f.name)).toEqual(['hello.txt']);
      expect((await listOf(replacement, '?q=%25')).items).toEqual([]);
      const page = await listOf(replacement, '?limit=1&offset=1&sort=name');
      expect(page).toMatchObject({ total: 2, offset: 1, limit: 1 });
      expect(page.items.map((f) => f.name)).toEqual(['hello.txt']);
      const byConfig = await call('listConfigArtifacts', viewer.token, `/api/v1/sandbox-configs/${cfgA}/artifacts?q=data`, { id: cfgA });
      expect(((await byConfig.json()) as ArtifactList).items.map((f) => f.path)).toEqual(['data.bin']);
      const [audit] = await db().select().from(auditLog).where(eq(auditLog.action, 'sandbox.artifacts.collect'));
      expect(audit).toMatchObject({ actorLabel: 'system', targetId: first });
      expect(audit.after).toMatchObject({ trigger: 'next_turn', status: 'partial', files: 2, causedBy: operator.actor.label });
    });

    it('download needs sandboxes.run, as from a running sandbox; a viewer only lists', async () => {
      const [f] = (await listOf(replacement)).items;
      expect((await download(f.id, viewer.token)).status).toBe(403);
      expect((await download('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    });
  });

  it('a remove collects, with the caps cutting and saying so', async () => {
    const cfg = await newConfig('artifacts-caps');
    const id = (await startInstance(deps(), operator.actor, cfg)).id;
    const made = await sh(
      id,
      'cd /workspace/output && for i in 1 2 3 4 5; do printf "file $i" > f$i.txt; done && head -c 5000 /dev/zero > big.bin && mkfifo pipe',
    );
    expect(made.exitCode).toBe(0);
    await removeInstance({ ...deps(), artifactLimits: { maxFiles: 3, maxBytes: 4000 } }, operator.actor, id);
    expect(
      await docker
        .getContainer(sandboxOf(id))
        .inspect()
        .catch(() => null),
    ).toBeNull();
    const list = await listOf(id);
    const [c] = list.collections;
    expect(c).toMatchObject({ trigger: 'remove', status: 'partial', fileCount: 3, replacedBy: null });
    expect(c.skipped).toEqual({ too_large: 1, file_cap: 2, device: 1 });
    expect(c.note).toMatch(/1 file\(s\) larger than the whole collection cap; 2 file\(s\) past the file-count cap/);
    expect(c.note).toMatch(/caps: 3 files, 4000 bytes/);
    expect(list.items).toHaveLength(3);
    for (const f of list.items) expect(await (await download(f.id)).text()).toBe(`file ${f.name.slice(1, 2)}`);
  }, 120_000);

  it('a remove of a sandbox without an output folder records it as empty', async () => {
    const cfg = await newConfig('artifacts-empty');
    const id = (await startInstance(deps(), operator.actor, cfg)).id;
    expect((await sh(id, 'rm -r /workspace/output')).exitCode).toBe(0);
    await removeInstance(deps(), operator.actor, id);
    const [c] = (await listOf(id)).collections;
    expect(c).toMatchObject({ status: 'empty', fileCount: 0, note: '/workspace/output did not exist.' });
  }, 120_000);

  it('a failing collection does not block the removal: it is recorded as failed', async () => {
    const cfg = await newConfig('artifacts-fail');
    const id = (await startInstance(deps(), operator.actor, cfg)).id;
    await sh(id, 'printf x > /workspace/output/a.txt');
    // A collection that cannot finish in time (a zero budget) fails; the sandbox still goes.
    await removeInstance({ ...deps(), artifactLimits: { timeoutMs: 0 } }, operator.actor, id);
    expect(
      await docker
        .getContainer(sandboxOf(id))
        .inspect()
        .catch(() => null),
    ).toBeNull();
    const [c] = (await listOf(id)).collections;
    expect(c.status).toBe('failed');
    expect(c.note).toMatch(/^Collection failed/);
  }, 120_000);

  it('the idle sweep collects before it removes', async () => {
    const cfg = await newConfig('artifacts-idle', { idleTtlSeconds: 60 });
    const id = (await startInstance(deps(), operator.actor, cfg)).id;
    await sh(id, 'printf idle-output > /workspace/output/left.txt');
    const s = ts.services;
    const swept = await sweepDockerEngines({
      db: s.database.db,
      backendFor: (row) => backendFor(s.sandboxes, row),
      beforeRemove: (configId, sandboxId) => collectBeforeSweep(s.sandboxes, configId, sandboxId),
      now: () => Date.now() + 5 * 60_000,
    });
    expect(swept.flatMap((e) => e.removed)).toContain(sandboxOf(id));
    const list = await listOf(id);
    expect(list.collections[0]).toMatchObject({ trigger: 'idle_sweep', status: 'collected', fileCount: 1 });
    expect(await (await download(list.items[0].id)).text()).toBe('idle-output');
  }, 120_000);

  it('retention keeps the newest collections per config and removes the others with the blobs only they named', async () => {
    // A second collection in config A holding the same bytes as the first plus a new file.
    const id = replacementA;
    await writeBinary(cfgA, id);
    await sh(id, 'printf newer > /workspace/output/newer.txt');
    await removeInstance(deps(), operator.actor, id);
    const all = await db().select().from(sandboxArtifactCollections).where(eq(sandboxArtifactCollections.configId, cfgA));
    expect(all).toHaveLength(2);
    const older = all.find((c) => c.trigger === 'next_turn')!;
    const olderFiles = await db().select().from(sandboxArtifactFiles).where(eq(sandboxArtifactFiles.collectionId, older.id));
    const helloSha = olderFiles.find((f) => f.name === 'hello.txt')!.sha256;
    const dataSha = olderFiles.find((f) => f.name === 'data.bin')!.sha256;
    const blobExists = async (sha: string) => (await db().select().from(blobs).where(eq(blobs.sha256, sha))).length === 1;

    const r = await pruneArtifacts(db(), { keepPerConfig: 1 });
    expect(r.collections).toBeGreaterThanOrEqual(1);
    const left = await db().select().from(sandboxArtifactCollections).where(eq(sandboxArtifactCollections.configId, cfgA));
    expect(left.map((c) => c.trigger)).toEqual(['remove']);
    expect(await blobExists(helloSha)).toBe(false);
    // Still named by the kept collection.
    expect(await blobExists(dataSha)).toBe(true);

    // Past the age limit everything goes, and with it the last blobs.
    const aged = await pruneArtifacts(db(), { maxAgeDays: 1 }, new Date(Date.now() + 2 * 86_400_000));
    expect(aged.collections).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(sandboxArtifactCollections)).toEqual([]);
    expect(await db().select().from(sandboxArtifactFiles)).toEqual([]);
    expect(await blobExists(dataSha)).toBe(false);
  }, 120_000);
});
