// The full check and the sandboxes started from a config, on a real Docker engine with the
// offline busybox image: every probe reported, a broken config named by its failing probe, and
// nothing left behind either way.
import { createHash } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ALL_PERMISSIONS } from '@/lib/auth/permissions';
import { enqueue, getJob } from '@/lib/jobs/queue';
import { createConfig, getConfig } from '@/lib/sandbox/config/store';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { listInstanceFiles, readInstanceFile, uploadInstanceFile } from '../instances/files';
import { execInInstance, getInstance, listInstances, removeInstance, startInstance } from '../instances/service';
import { type FullCheckReport, PROBE_NAMES, runFullCheck } from './full-check';
import { sandboxCheckJob } from './job';

const actor: Actor = { ...systemActor, kind: 'user', label: 'check-test', permissions: new Set(ALL_PERMISSIONS) };
const statuses = (r: FullCheckReport) => Object.fromEntries(r.probes.map((p) => [p.name, p.status]));

describeDocker('sandbox full check and instances', () => {
  const docker = new Docker();
  const backend = new DockerBackend({ host: process.env.DOCKER_HOST });
  let image = '';
  let ts: TestServices;
  const checkLeftovers = async () => (await docker.listContainers({ all: true, filters: { label: ['io.skilldock.check'] } })).length;

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    ts = await startTestServices({ worker: true });
  });
  afterAll(async () => {
    for (const c of await docker.listContainers({ all: true, filters: { label: ['skilldock.started-by=check-test'] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
    await ts?.stop();
  });

  it('passes every probe on a working config and leaves nothing behind', async () => {
    const before = await checkLeftovers();
    const r = await runFullCheck({ backend: () => backend, spec: { image, limits: { memoryMb: 128, pids: 100 } }, expected: { memoryMb: 128, pids: 100 } });
    expect(r.probes.map((p) => p.name)).toEqual([...PROBE_NAMES]);
    expect(r.probes.filter((p) => p.status !== 'pass')).toEqual([]);
    expect(r.passed).toBe(true);
    expect(r.probes.find((p) => p.name === 'limits')?.detail).toMatchObject({ memoryBytes: 128 * 1024 * 1024, pids: 100 });
    expect(await checkLeftovers()).toBe(before);
  });

  it('names a missing image as the failing probe and skips the rest', async () => {
    const r = await runFullCheck({ backend: () => backend, spec: { image: 'skilldock-test/absent:1' } });
    expect(statuses(r)).toMatchObject({
      client: 'pass',
      endpoint: 'pass',
      credentials: 'pass',
      image: 'fail',
      create: 'skipped',
      exec: 'skipped',
      cleanup: 'skipped',
    });
    expect(r.probes.find((p) => p.name === 'image')?.reason).toMatch(/not present/);
    expect(r.passed).toBe(false);
  });

  it('cleans up after a create that fails half-way', async () => {
    const before = await checkLeftovers();
    const broken = new DockerBackend({ host: process.env.DOCKER_HOST, runtime: 'no-such-runtime' });
    const r = await runFullCheck({ backend: () => broken, spec: { image } });
    expect(statuses(r)).toMatchObject({ image: 'pass', create: 'fail', exec: 'skipped', files: 'skipped', cleanup: 'pass' });
    expect(await checkLeftovers()).toBe(before);
  });

  it('reports a limit the sandbox does not show', async () => {
    const r = await runFullCheck({ backend: () => backend, spec: { image, limits: { memoryMb: 128 } }, expected: { memoryMb: 256 } });
    expect(statuses(r)).toMatchObject({ limits: 'fail', cleanup: 'pass' });
    expect(r.probes.find((p) => p.name === 'limits')?.reason).toMatch(/128 MiB, expected 256 MiB/);
  });

  it('a config is enabled by its first passing check job, then starts sandboxes that run, move files and go away', async () => {
    const s = ts.services;
    const deps = { db: s.database.db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } };
    const cfg = await createConfig(deps, actor, {
      name: 'check-test',
      backend: 'docker',
      description: '',
      config: { image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: 128, pidsLimit: 100, cpuLimit: 0.5 },
    } as never);
    expect(cfg.enabled).toBe(false);
    await expect(startInstance(s.sandboxes, actor, cfg.id)).rejects.toMatchObject({ code: 'invalid_state' });

    const job = await enqueue(s.database, actor, sandboxCheckJob, { configId: cfg.id, configName: cfg.name }, { trusted: true });
    const done = await waitFor(
      async () => {
        const j = await getJob(s.database, job.id);
        return j.state === 'succeeded' || j.state === 'failed' ? j : null;
      },
      'the check job',
      60_000,
    );
    expect(done.state).toBe('succeeded');
    expect((done.result as FullCheckReport).probes.filter((p) => p.status !== 'pass')).toEqual([]);
    expect((done.result as FullCheckReport).passed).toBe(true);
    const after = await getConfig(deps, cfg.id);
    expect(after.enabled).toBe(true);

    const inst = await startInstance(s.sandboxes, actor, cfg.id);
    expect(inst.configId).toBe(cfg.id);
    expect((await listInstances(s.sandboxes, { configId: cfg.id })).items.map((i) => i.id)).toContain(inst.id);
    expect((await getInstance(s.sandboxes, inst.id)).state).toBe('running');
    expect((await s.sandboxUsage.configInUse(cfg.id)).instances.map((i) => i.id)).toContain(inst.id);

    const r = await execInInstance(s.sandboxes, actor, inst.id, { argv: ['sh', '-c', 'echo made > /workspace/output/result.txt; echo ok'] });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'ok\n' });
    const files = await listInstanceFiles(s.sandboxes, inst.id, 'output');
    expect(files.entries.map((e) => e.name)).toContain('result.txt');
    const chunks: Buffer[] = [];
    for await (const c of (await readInstanceFile(s.sandboxes, inst.id, 'output/result.txt', 1024)).stream) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('made\n');

    const data = Buffer.from('uploaded bytes');
    await uploadInstanceFile(s.sandboxes, actor, inst.id, 'in.txt', data);
    const sum = await execInInstance(s.sandboxes, actor, inst.id, { argv: ['sha256sum', '/workspace/input/in.txt'] });
    expect(sum.stdout.split(' ')[0]).toBe(createHash('sha256').update(data).digest('hex'));

    await expect(readInstanceFile(s.sandboxes, inst.id, '../etc/passwd', 1024)).rejects.toMatchObject({ code: 'validation' });
    await removeInstance(s.sandboxes, actor, inst.id);
    expect((await listInstances(s.sandboxes, { configId: cfg.id })).items).toEqual([]);
    await expect(getInstance(s.sandboxes, inst.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
