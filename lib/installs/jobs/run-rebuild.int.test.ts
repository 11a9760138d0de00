// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// Image health and the rebuild from base on a real engine: a snapshot deleted behind Skilldock's
// back is seen as missing, installs refuse to build on it, and the rebuild brings a new generation
// with every skill back; a deep image makes the next install start from base.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue } from '@/lib/jobs/queue';
import { describeDocker } from '@/test/helpers/docker';
import { installActor as actor, echoSkill, type InstallKit, startInstallKit } from '@/test/helpers/install-jobs';
import { imageHealth } from '../generations/image-health';
import * as store from '../records/store';
import { imageRebuildJob, skillInstallJob } from './handlers';
import { runInstall } from './run-install';

describeDocker('image health and rebuild from base', () => {
  let kit: InstallKit;
  let cfg = '';
  const db = () => kit.ts.services.database.db;
  const health = () => imageHealth(kit.ts.services.sandboxes, cfg);

  beforeAll(async () => {
    kit = await startInstallKit();
    cfg = await kit.newConfig('rebuild-job');
  }, 120_000);

  afterAll(async () => {
    await kit?.stop();
  });

  it('rebuilds a deleted snapshot from base with both skills', async () => {
    expect(await health()).toMatchObject({ state: 'no_snapshot', active: null, layerLimit: 125 });
    const a = await kit.begin(cfg, await kit.storeSkill('red', echoSkill('red')));
    const b = await kit.begin(cfg, await kit.storeSkill('blue', echoSkill('blue')));
    const job = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: [a.id, b.id] }, { trusted: true });
    expect((await kit.waitJob(job.id)).state).toBe('succeeded');
    const active = await store.activeImage(db(), cfg);
    const ok = await health();
    expect(ok).toMatchObject({ state: 'ok', active: { generation: 1, ref: active?.plannedRef, imageId: active?.imageId, layers: 2 } });
    expect(ok.active?.sizeBytes).toBeGreaterThan(0);

    await kit.docker.getImage(active!.plannedRef).remove({ force: true });
    const gone = await health();
    expect(gone.state).toBe('missing');
    expect(gone.message).toContain('Rebuild from base');

    // An install now refuses rather than start from base and lose red and blue.
    const c = await kit.begin(cfg, await kit.storeSkill('green', echoSkill('green')));
    const refused = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: [c.id] }, { trusted: true });
    expect((await kit.waitJob(refused.id)).state).toBe('failed');
    const failed = await store.getInstall(db(), c.id);
    expect(failed?.error).toMatchObject({ code: 'image_missing' });
    expect(failed?.error?.message).toContain('rebuild from base');
    expect((await store.listImages(db(), cfg)).length).toBe(1);

    const rebuild = await enqueue(kit.ts.services.database, actor, imageRebuildJob, { configId: cfg, reason: 'test: image pruned' }, { trusted: true });
    const done = await kit.waitJob(rebuild.id);
    expect(done.error).toBeNull();
    expect(done.result).toMatchObject({ noop: false, imageGeneration: 2 });
    const now = await store.activeImage(db(), cfg);
    expect(now).toMatchObject({ generation: 2, parentGeneration: 1 });
    expect(now?.skills.map((s) => s.skillKey).sort()).toEqual(['blue', 'red']);
    expect((await health()).state).toBe('ok');
    expect(await kit.skillsInSandbox(cfg)).toEqual(['blue', 'red']);
    expect((await kit.runIn(cfg, ['/opt/skilldock/skills/red/run.sh', 'back'])).stdout).toBe('red says back\n');
    expect(await store.getInstall(db(), a.id)).toMatchObject({ state: 'ready' });
    expect(await kit.maintenanceLeft(cfg)).toEqual([]);
  }, 240_000);

  it('an install on a deep image starts from base and reinstalls what it held', async () => {
    const before = await store.activeImage(db(), cfg);
    expect(before?.layers).toBe(2);
    const rec = await kit.begin(cfg, await kit.storeSkill('teal', echoSkill('teal')));
    const hand = await kit.handCtx({ installIds: [rec.id] });
    const deps = { ...kit.ts.services.sandboxes, dataDir: kit.ts.dataDir, layerRebuildAt: 2 };
    const r = await runInstall(deps, hand.ctx, actor);
    expect(r.installs).toEqual([{ installId: rec.id, skillKey: 'teal', outcome: 'ready' }]);
    expect(hand.lines.some((l) => l.includes('building from the base image'))).toBe(true);
    expect(hand.lines.some((l) => l.includes('(reinstall)'))).toBe(true);
    const now = await store.activeImage(db(), cfg);
    // Stacked, it would have three layers; from base it has two again.
    expect(now?.layers).toBe(2);
    expect(now?.skills.map((s) => s.skillKey).sort()).toEqual(['blue', 'red', 'teal']);
    expect(await kit.skillsInSandbox(cfg)).toEqual(['blue', 'red', 'teal']);
  }, 240_000);
});
