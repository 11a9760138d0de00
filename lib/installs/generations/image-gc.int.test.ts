// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// Collection of superseded snapshot images on a real engine: nothing inside the grace period, an
// image a container uses kept past it, an unused one removed from the engine and marked deleted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue } from '@/lib/jobs/queue';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { removeInstance, startInstance } from '@/lib/sandbox/instances/service';
import { describeDocker } from '@/test/helpers/docker';
import { installActor as actor, echoSkill, type InstallKit, startInstallKit } from '@/test/helpers/install-jobs';
import { imageExists } from '../docker/build';
import { skillInstallJob } from '../jobs/handlers';
import * as store from '../records/store';
import { collectImages, GC_GRACE_MS } from './image-gc';

describeDocker('snapshot image collection', () => {
  let kit: InstallKit;
  let cfg = '';
  const db = () => kit.ts.services.database.db;

  async function installOne(name: string) {
    const rec = await kit.begin(cfg, await kit.storeSkill(name, echoSkill(name)));
    const job = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: [rec.id] }, { trusted: true });
    expect((await kit.waitJob(job.id)).state).toBe('succeeded');
  }

  beforeAll(async () => {
    kit = await startInstallKit();
    cfg = await kit.newConfig('image-gc');
  }, 120_000);

  afterAll(async () => {
    await kit?.stop();
  });

  it('keeps superseded images in use or in grace, collects the rest', async () => {
    const c = new DockerBackend({ host: process.env.DOCKER_HOST }).conn;
    await installOne('first');
    const used = await startInstance(kit.ts.services.sandboxes, actor, cfg);
    await installOne('second');
    await installOne('third');
    const [g3, g2, g1] = await store.listImages(db(), cfg);
    expect([g3.state, g2.state, g1.state]).toEqual(['active', 'superseded', 'superseded']);
    expect(used.image).toBe(g1.plannedRef);

    const inGrace = await collectImages(kit.ts.services.sandboxes, { now: new Date() });
    expect(inGrace).toEqual({ deleted: [], kept: [], errors: [] });

    const later = new Date(Date.now() + GC_GRACE_MS + 60_000);
    const r = await collectImages(kit.ts.services.sandboxes, { now: later });
    expect(r.errors).toEqual([]);
    expect(r.deleted.map((d) => d.generation)).toEqual([2]);
    expect(r.kept).toEqual([expect.objectContaining({ generation: 1, reason: 'a container uses it' })]);
    expect(await imageExists(c, g2.plannedRef)).toBe(false);
    expect(await imageExists(c, g1.plannedRef)).toBe(true);
    const rows = await store.listImages(db(), cfg);
    expect(rows.map((i) => [i.generation, i.state])).toEqual([
      [3, 'active'],
      [2, 'deleted'],
      [1, 'superseded'],
    ]);
    // The active generation is built on the collected one and still starts.
    expect(await kit.skillsInSandbox(cfg)).toEqual(['first', 'second', 'third']);

    await removeInstance(kit.ts.services.sandboxes, actor, used.id);
    const after = await collectImages(kit.ts.services.sandboxes, { now: later, graceMs: GC_GRACE_MS });
    expect(after.deleted.map((d) => d.generation)).toEqual([1]);
    expect(await imageExists(c, g1.plannedRef)).toBe(false);
    expect((await store.listImages(db(), cfg)).find((i) => i.generation === 1)?.state).toBe('deleted');
  }, 240_000);
});
