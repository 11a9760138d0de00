// The scheduled idle sweep on a real engine: enabled Docker configs name the engines, a pass removes
// an idle labelled container and keeps a fresh one, and an engine is swept at most once a minute.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog, sandboxConfigs } from '@/db/schema';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ALL_PERMISSIONS } from '@/lib/auth/permissions';
import { createConfig } from '@/lib/sandbox/config/store';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { backendFor } from '../instances/service';
import { DockerBackend } from './backend';
import { SWEEP_EVERY_MS, type SweepScheduleDeps, startSandboxSweeper, sweepDockerEngines } from './sweep-schedule';

const actor: Actor = { ...systemActor, kind: 'user', label: 'sweep-schedule-test', permissions: new Set(ALL_PERMISSIONS) };
const RUN = randomBytes(6).toString('hex');
const labels = { 'io.skilldock.test-sweep-schedule': RUN };

describeDocker('scheduled idle sweep', () => {
  const docker = new Docker();
  // Creates as the services' installation does, so their sweep counts these containers as its own.
  let backend: DockerBackend;
  let image = '';
  let ts: TestServices;
  let deps: SweepScheduleDeps;
  // A few seconds ahead of real time: only containers with a TTL that short are idle by this clock.
  let shift = 5_000;

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    ts = await startTestServices({ worker: false });
    const s = ts.services;
    backend = new DockerBackend({ host: process.env.DOCKER_HOST, installationId: s.installationId });
    const cfg = await createConfig({ db: s.database.db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } }, actor, {
      name: 'sweep-schedule-test',
      backend: 'docker',
      description: '',
      config: { image, host: process.env.DOCKER_HOST ?? '' },
    } as never);
    await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
    deps = { db: s.database.db, backendFor: (row) => backendFor(s.sandboxes, row), now: () => Date.now() + shift };
  });
  afterAll(async () => {
    for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.test-sweep-schedule=${RUN}`] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
    await ts?.stop();
  });

  it('sweeps on a one-minute timer: the idle container goes, the fresh one stays, the removal is audited', async () => {
    const idle = await backend.create({ image, labels, idleTtlSeconds: 2 });
    const fresh = await backend.create({ image, labels, idleTtlSeconds: 3600 });
    let every = 0;
    let stopped = false;
    const stop = startSandboxSweeper({
      ...deps,
      every: (ms) => {
        every = ms;
        return () => (stopped = true);
      },
    });
    expect(every).toBe(SWEEP_EVERY_MS);
    await waitFor(async () => (await backend.get(idle.id)) === null, 'the idle container to be swept');
    expect((await backend.get(fresh.id))?.state).toBe('running');
    const audit = await waitFor(async () => {
      const rows = await ts.services.database.db.select().from(auditLog).where(eq(auditLog.action, 'sandbox.sweep'));
      return rows.length ? rows : null;
    }, 'the sweep audit record');
    expect(audit[0].after).toMatchObject({ removed: expect.arrayContaining([idle.id]) });
    stop();
    expect(stopped).toBe(true);
  });

  it('sweeps an engine at most once a minute and reports a broken engine without throwing', async () => {
    const seen = new Map<string, number>();
    await sweepDockerEngines(deps, seen);
    const idle = await backend.create({ image, labels, idleTtlSeconds: 2 });
    expect(await sweepDockerEngines(deps, seen)).toEqual([]);
    expect((await backend.get(idle.id))?.state).toBe('running');
    shift += SWEEP_EVERY_MS;
    const passes = await sweepDockerEngines(deps, seen);
    expect(passes).toHaveLength(1);
    expect(passes[0].removed).toContain(idle.id);
    expect(await backend.get(idle.id)).toBeNull();

    const broken = await sweepDockerEngines({
      ...deps,
      backendFor: () => new DockerBackend({ host: 'unix:///nonexistent/skilldock-sweep-test.sock', installationId: ts.services.installationId }),
    });
    expect(broken).toHaveLength(1);
    expect(broken[0].error).toBeTruthy();
  });
});
