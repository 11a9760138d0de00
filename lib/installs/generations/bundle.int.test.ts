// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// Skill installs into an E2B config, whose templates cannot be committed to: the install job proves
// the bundle in a maintenance sandbox of the loopback E2B server (real containers), records it as
// a generation with no image, and every sandbox started afterwards gets the skills at start. A
// newer bundle makes older sandboxes stale; a failing skill fails alone and the bundle before it
// keeps serving; a removal makes a bundle without it; a half-built bundle and a leftover
// maintenance sandbox are reclaimed by recovery.
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue } from '@/lib/jobs/queue';
import type { JobRow } from '@/lib/jobs/types';
import { CONFIG_LABEL } from '@/lib/sandbox/config/in-use';
import { loadRow } from '@/lib/sandbox/config/store';
import { backendFor, execInInstance, listInstances, removeInstance, startInstance } from '@/lib/sandbox/instances/service';
import { describeDocker } from '@/test/helpers/docker';
import { type E2bServer, serverContainers, startE2bServer } from '@/test/helpers/e2b-server';
import { installActor as actor, echoSkill, type InstallKit, skillMd, startInstallKit } from '@/test/helpers/install-jobs';
import { MAINTENANCE_LABEL } from '../../sandbox/images/snapshot-names';
import { skillInstallJob, skillRemoveJob } from '../jobs/kinds';
import * as store from '../records/store';
import { recoverInstalls } from '../recovery/recovery';
import { imageHealth } from './image-health';
import { bundleDigest } from './workbench';

describeDocker('skill installs into an E2B config (bundles installed at start)', () => {
  const docker = new Docker();
  let server: E2bServer;
  let kit: InstallKit;
  let configId = '';
  const db = () => kit.ts.services.database.db;
  const sandboxes = () => kit.ts.services.sandboxes;

  async function install(skill: store.CatalogSkill): Promise<{ job: JobRow; record: store.InstallRecord }> {
    const begun = await kit.begin(configId, skill);
    const queued = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: [begun.id] }, { trusted: true });
    const job = await kit.waitJob(queued.id);
    return { job, record: (await store.getInstall(db(), begun.id))! };
  }

  async function run(id: string, script: string): Promise<string> {
    const r = await execInInstance(sandboxes(), actor, id, { argv: ['sh', '-c', script] });
    return r.stdout.trim();
  }

  beforeAll(async () => {
    kit = await startInstallKit();
    server = await startE2bServer({ docker, flavor: 'e2b', templates: ['skilldock-test'] });
    const _s = kit.ts.services;
    configId = await kit.newE2bConfig('e2b-bundle', server);
  }, 120_000);

  afterAll(async () => {
    await kit?.stop();
    await server?.close();
    expect(await serverContainers(docker, server)).toEqual([]);
  });

  it('proves a bundle in a maintenance sandbox and installs it into every new sandbox at start', async () => {
    const hello = await kit.storeSkill('hello', echoSkill('hello'));
    const { job, record } = await install(hello);
    expect(job.state).toBe('succeeded');
    expect(record).toMatchObject({ state: 'ready', imageGeneration: 1 });
    const active = (await store.activeImage(db(), configId))!;
    expect(active.plannedRef).toBe(`bundle:${configId}:g1`);
    expect(active.imageId).toBe(bundleDigest([{ skillKey: 'hello', version: hello.version, contentHash: hello.contentHash }]));
    expect(server.sandboxes.size).toBe(0);
    expect((await imageHealth(sandboxes(), configId)).state).toBe('bundle');

    const inst = await startInstance(sandboxes(), actor, configId);
    expect(inst).toMatchObject({ imageGeneration: 1, activeImageGeneration: 1, stale: false });
    expect(await run(inst.id, 'sh /opt/skilldock/skills/hello/run.sh world')).toBe('hello says world');
    expect(await run(inst.id, 'echo "$SKILLDOCK_SKILLS_DIR"')).toBe('/opt/skilldock/skills');

    const bye = await kit.storeSkill('bye', echoSkill('bye'));
    expect((await install(bye)).record).toMatchObject({ state: 'ready', imageGeneration: 2 });
    const listed = (await listInstances(sandboxes(), { configId })).items.find((i) => i.id === inst.id);
    expect(listed).toMatchObject({ imageGeneration: 1, activeImageGeneration: 2, stale: true });
    const fresh = await startInstance(sandboxes(), actor, configId);
    expect(await run(fresh.id, 'ls /opt/skilldock/skills')).toBe('bye\nhello');
    await removeInstance(sandboxes(), actor, inst.id);
    await removeInstance(sandboxes(), actor, fresh.id);
  });

  it('a failing skill fails alone with its reason; the bundle before it keeps serving', async () => {
    const broken = await kit.storeSkill('needs-ffprobe', { 'SKILL.md': skillMd('needs-ffprobe', ['ffprobe']), 'run.sh': '#!/bin/sh\nffprobe "$1"\n' });
    const { job, record } = await install(broken);
    expect(job.state).toBe('failed');
    expect(record.state).toBe('failed');
    expect(record.error?.message).toContain('ffprobe');
    expect((await store.activeImage(db(), configId))?.generation).toBe(2);
    expect(server.sandboxes.size).toBe(0);
    const inst = await startInstance(sandboxes(), actor, configId);
    expect(await run(inst.id, 'ls /opt/skilldock/skills')).toBe('bye\nhello');
    await removeInstance(sandboxes(), actor, inst.id);
  });

  it('a removal records a bundle without the skill', async () => {
    const [rec] = await store.listInstalls(db(), { configId, skillKey: 'bye' });
    await store.beginRemove(db(), actor, rec.id);
    const queued = await enqueue(kit.ts.services.database, actor, skillRemoveJob, { installId: rec.id }, { trusted: true });
    expect((await kit.waitJob(queued.id)).state).toBe('succeeded');
    expect((await store.activeImage(db(), configId))?.skills.map((s) => s.skillKey)).toEqual(['hello']);
    const inst = await startInstance(sandboxes(), actor, configId);
    expect(await run(inst.id, 'ls /opt/skilldock/skills')).toBe('hello');
    await removeInstance(sandboxes(), actor, inst.id);
  });

  it('recovery marks a half-built bundle deleted and removes a leftover maintenance sandbox', async () => {
    const planned = await store.planImage(db(), configId, { bundle: true });
    const e2b = backendFor(sandboxes(), await loadRow(db(), configId));
    const leftover = await e2b.create({ image: 'skilldock-test', labels: { [CONFIG_LABEL]: configId, [MAINTENANCE_LABEL]: 'skill.install-dead' } });
    const report = await recoverInstalls({ ...sandboxes() });
    expect(report.images.map((i) => i.plannedRef)).toContain(planned.plannedRef);
    expect(report.reclaimed.flatMap((r) => r.containers)).toContain(leftover.id);
    expect(await e2b.get(leftover.id)).toBeNull();
    expect((await store.activeImage(db(), configId))?.generation).toBe(3);
  });
});
