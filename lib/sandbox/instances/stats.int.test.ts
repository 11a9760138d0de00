// CPU/memory/PIDs of a running Docker sandbox, for the instance page's chart, on a real engine.
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandboxConfigs } from '@/db/schema';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ALL_PERMISSIONS } from '@/lib/auth/permissions';
import { hasCode } from '@/lib/core/errors';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { createConfig } from '../config/store';
import { DockerBackend } from '../docker/backend';
import { startInstance } from './service';
import { instanceStats } from './stats';

const actor: Actor = { ...systemActor, kind: 'user', label: 'stats-test', permissions: new Set(ALL_PERMISSIONS) };

describeDocker('docker sandbox stats', () => {
  const docker = new Docker();
  const backend = new DockerBackend({ host: process.env.DOCKER_HOST });
  const label = { 'skilldock.test': 'stats' };
  let image = '';
  let ts: TestServices;

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    ts = await startTestServices({ worker: false });
  });
  afterAll(async () => {
    for (const l of ['skilldock.test=stats', 'skilldock.started-by=stats-test'])
      for (const c of await docker.listContainers({ all: true, filters: { label: [l] } })) await docker.getContainer(c.Id).remove({ force: true, v: true });
    await ts?.stop();
  });

  it('samples memory, its limit, PIDs and a CPU share of a running sandbox', async () => {
    const sb = await backend.create({ image, labels: label, limits: { memoryMb: 64, pids: 50 } });
    const s = await backend.stats(sb.id);
    expect(s.memoryBytes).toBeGreaterThan(0);
    expect(s.memoryLimitBytes).toBe(64 * 1024 * 1024);
    expect(s.pids).toBeGreaterThanOrEqual(1);
    expect(s.cpuPercent).toBeGreaterThanOrEqual(0);
  });

  it('answers a typed not-found for an absent container', async () => {
    await expect(backend.stats('0123456789ab')).rejects.toMatchObject({ code: expect.any(String) });
  });
});

describeDocker('sandbox stats operation', () => {
  const docker = new Docker();
  let ts: TestServices;
  beforeAll(async () => {
    ts = await startTestServices({ worker: false });
  });
  afterAll(async () => {
    for (const c of await docker.listContainers({ all: true, filters: { label: ['skilldock.started-by=stats-test'] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
    await ts?.stop();
  });

  it('samples a running instance by its id and refuses a stopped one with 409', async () => {
    const s = ts.services;
    const image = await ensureBusyboxImage(docker);
    const cfg = await createConfig({ db: s.database.db, secrets: s.secrets, usage: {} as never, validate: { tlsRoots: [], workspaceRoots: [] } }, actor, {
      name: `stats-${Date.now()}`,
      backend: 'docker',
      description: '',
      config: { image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: 96 },
    } as never);
    await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
    const inst = await startInstance(s.sandboxes, actor, cfg.id);
    const sample = await instanceStats(s.sandboxes, inst.id);
    expect(sample.memoryLimitBytes).toBe(96 * 1024 * 1024);
    expect(Date.parse(sample.at)).not.toBeNaN();
    await docker.getContainer(inst.sandboxId).stop({ t: 0 });
    const stopped = await instanceStats(s.sandboxes, inst.id).catch((e) => e);
    expect(hasCode(stopped, 'invalid_state')).toBe(true);
  });
});
