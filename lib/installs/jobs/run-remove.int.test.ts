// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// Removing a skill from a config's image on a real engine: a new generation without its folder
// that fresh sandboxes start from, the record gone with the switch, and the shortcuts when no
// image ever held the skill.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue, readJobLogs } from '@/lib/jobs/queue';
import { describeDocker } from '@/test/helpers/docker';
import { installActor as actor, echoSkill, type InstallKit, skillMd, startInstallKit } from '@/test/helpers/install-jobs';
import * as store from '../records/store';
import { skillInstallJob, skillRemoveJob } from './handlers';
import { runRemove } from './run-remove';

describeDocker('skill removal job', () => {
  let kit: InstallKit;
  let cfg = '';
  const db = () => kit.ts.services.database.db;
  const records: Record<string, store.InstallRecord> = {};

  beforeAll(async () => {
    kit = await startInstallKit();
    cfg = await kit.newConfig('remove-job');
    const keep = await kit.storeSkill('keep', echoSkill('keep'));
    const drop = await kit.storeSkill('drop', echoSkill('drop'));
    records.keep = await kit.begin(cfg, keep);
    records.drop = await kit.begin(cfg, drop);
    const job = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: [records.keep.id, records.drop.id] }, { trusted: true });
    expect((await kit.waitJob(job.id)).state).toBe('succeeded');
  }, 180_000);

  afterAll(async () => {
    await kit?.stop();
  });

  it('rebuilds the image without the skill: a new sandbox has only the other one, the record is gone', async () => {
    expect(await kit.skillsInSandbox(cfg)).toEqual(['drop', 'keep']);
    const before = await store.activeImage(db(), cfg);
    await store.beginRemove(db(), actor, records.drop.id);
    const job = await enqueue(kit.ts.services.database, actor, skillRemoveJob, { installId: records.drop.id }, { trusted: true });
    const done = await kit.waitJob(job.id);
    expect(done.error).toBeNull();
    expect(done.state).toBe('succeeded');
    expect(await store.getInstall(db(), records.drop.id)).toBeNull();
    const active = await store.activeImage(db(), cfg);
    expect(active?.generation).toBe((before?.generation ?? 0) + 1);
    expect(active?.skills.map((s) => s.skillKey)).toEqual(['keep']);
    expect(await kit.skillsInSandbox(cfg)).toEqual(['keep']);
    expect((await kit.runIn(cfg, ['/opt/skilldock/skills/keep/run.sh', 'still'])).stdout).toBe('keep says still\n');
    const lines = (await readJobLogs(kit.ts.services.database, job.id, 0, 1000)).map((l) => l.line);
    expect(lines.some((l) => l.includes('stay in the image'))).toBe(true);
    expect(await store.getInstall(db(), records.keep.id)).toMatchObject({ state: 'ready' });
    expect(await kit.maintenanceLeft(cfg)).toEqual([]);
  }, 180_000);

  it('removing the last skill commits a generation holding none', async () => {
    await store.beginRemove(db(), actor, records.keep.id);
    const hand = await kit.handCtx({ installId: records.keep.id });
    const r = await runRemove({ ...kit.ts.services.sandboxes, dataDir: kit.ts.dataDir }, hand.ctx, actor);
    expect(r.noop).toBe(false);
    const active = await store.activeImage(db(), cfg);
    expect(active).toMatchObject({ generation: r.imageGeneration, skills: [] });
    expect(await kit.skillsInSandbox(cfg)).toEqual([]);
    expect(await store.getInstall(db(), records.keep.id)).toBeNull();
  }, 180_000);

  it('a failed install no image holds goes without a rebuild', async () => {
    const bad = await kit.storeSkill('never', { 'SKILL.md': skillMd('never', ['no-such-bin-here']), 'run.sh': 'echo x\n' });
    const rec = await kit.begin(cfg, bad);
    const job = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: [rec.id] }, { trusted: true });
    expect((await kit.waitJob(job.id)).state).toBe('failed');
    const gens = (await store.listImages(db(), cfg)).length;
    await store.beginRemove(db(), actor, rec.id);
    const hand = await kit.handCtx({ installId: rec.id });
    const r = await runRemove({ ...kit.ts.services.sandboxes, dataDir: kit.ts.dataDir }, hand.ctx, actor);
    expect(r).toMatchObject({ noop: true, imageGeneration: null });
    expect(await store.getInstall(db(), rec.id)).toBeNull();
    expect((await store.listImages(db(), cfg)).length).toBe(gens);
  }, 180_000);

  it('a removal that fails before the switch returns the record to where it was', async () => {
    const s = await kit.storeSkill('again', echoSkill('again'));
    const rec = await kit.begin(cfg, s);
    const job = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: [rec.id] }, { trusted: true });
    expect((await kit.waitJob(job.id)).state).toBe('succeeded');
    const active = await store.activeImage(db(), cfg);
    // The active image gone from the engine: the removal refuses rather than build from base.
    await kit.docker.getImage(active!.plannedRef).remove({ force: true });
    await store.beginRemove(db(), actor, rec.id);
    const hand = await kit.handCtx({ installId: rec.id });
    await expect(runRemove({ ...kit.ts.services.sandboxes, dataDir: kit.ts.dataDir }, hand.ctx, actor)).rejects.toThrow(/rebuild from base/);
    expect(await store.getInstall(db(), rec.id)).toMatchObject({ state: 'ready', error: { code: 'image_missing' } });
    expect((await store.activeImage(db(), cfg))?.id).toBe(active?.id);
  }, 180_000);
});
