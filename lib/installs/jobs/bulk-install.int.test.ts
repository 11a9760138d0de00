// Bulk installs on a real engine: one parent, one install child per config (several skills into
// one config share one child and one snapshot), the records pointed at their child, and a parent
// that ends failed with a summary when a child failed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getJob, readJobLogs } from '@/lib/jobs/queue';
import { describeDocker } from '@/test/helpers/docker';
import { installActor as actor, echoSkill, type InstallKit, skillMd, startInstallKit } from '@/test/helpers/install-jobs';
import * as store from '../records/store';
import { enqueueBulkInstall } from './bulk-install';

describeDocker('bulk skill installs', () => {
  let kit: InstallKit;
  const db = () => kit.ts.services.database.db;

  beforeAll(async () => {
    kit = await startInstallKit();
  }, 120_000);

  afterAll(async () => {
    await kit?.stop();
  });

  it('installs several skills into one config and one into another under one parent', async () => {
    const [cfgA, cfgB] = [await kit.newConfig('bulk-a'), await kit.newConfig('bulk-b')];
    const s1 = await kit.storeSkill('bulk-one', echoSkill('bulk-one'));
    const s2 = await kit.storeSkill('bulk-two', echoSkill('bulk-two'));
    const a1 = await kit.begin(cfgA, s1);
    const a2 = await kit.begin(cfgA, s2);
    const b1 = await kit.begin(cfgB, s1);
    const tree = await enqueueBulkInstall(kit.ts.services.database, actor, [
      { configId: cfgA, installIds: [a1.id, a2.id] },
      { configId: cfgB, installIds: [b1.id] },
    ]);
    expect(tree.children).toHaveLength(2);
    expect(tree.parent.title).toBe('Install 3 skills into 2 sandbox configs');
    expect((await store.getInstall(db(), a2.id))?.jobId).toBe(tree.children[0].id);
    expect((await store.getInstall(db(), b1.id))?.jobId).toBe(tree.children[1].id);
    const parent = await kit.waitJob(tree.parent.id);
    expect(parent.error).toBeNull();
    expect(parent.state).toBe('succeeded');
    expect(parent.result).toMatchObject({ succeeded: 2, failed: 0 });
    for (const c of tree.children) expect((await getJob(kit.ts.services.database, c.id)).state).toBe('succeeded');
    const imgA = await store.listImages(db(), cfgA);
    expect(imgA.map((i) => i.generation)).toEqual([1]);
    expect(imgA[0].skills.map((s) => s.skillKey).sort()).toEqual(['bulk-one', 'bulk-two']);
    expect(await kit.skillsInSandbox(cfgA)).toEqual(['bulk-one', 'bulk-two']);
    expect(await kit.skillsInSandbox(cfgB)).toEqual(['bulk-one']);
  }, 240_000);

  it('ends failed with a summary when a child failed, the other child still done', async () => {
    const [cfgA, cfgB] = [await kit.newConfig('bulk-c'), await kit.newConfig('bulk-d')];
    const good = await kit.storeSkill('bulk-good', echoSkill('bulk-good'));
    const bad = await kit.storeSkill('bulk-bad', { 'SKILL.md': skillMd('bulk-bad', ['absent-binary-x']), 'run.sh': 'echo\n' });
    const g = await kit.begin(cfgA, good);
    const b = await kit.begin(cfgB, bad);
    const tree = await enqueueBulkInstall(kit.ts.services.database, actor, [
      { configId: cfgA, installIds: [g.id] },
      { configId: cfgB, installIds: [b.id] },
    ]);
    const parent = await kit.waitJob(tree.parent.id);
    expect(parent.state).toBe('failed');
    expect(parent.error).toContain('1 of 2 install job(s) failed');
    expect(parent.error).toContain('absent-binary-x');
    expect(await store.getInstall(db(), g.id)).toMatchObject({ state: 'ready' });
    expect(await store.getInstall(db(), b.id)).toMatchObject({ state: 'failed', error: { code: 'missing_binary' } });
    const lines = (await readJobLogs(kit.ts.services.database, parent.id, 0, 100)).map((l) => l.line);
    expect(lines.filter((l) => l.startsWith('✓ ')).length).toBe(1);
    expect(lines.filter((l) => l.startsWith('✗ ')).length).toBe(1);
  }, 240_000);

  it('refuses an install listed under another config, queueing nothing', async () => {
    const [cfgA, cfgB] = [await kit.newConfig('bulk-e'), await kit.newConfig('bulk-f')];
    const rec = await kit.begin(cfgA, await kit.storeSkill('bulk-x', echoSkill('bulk-x')));
    await expect(enqueueBulkInstall(kit.ts.services.database, actor, [{ configId: cfgB, installIds: [rec.id] }])).rejects.toThrow(/another sandbox config/);
    expect((await store.getInstall(db(), rec.id))?.jobId).toBeNull();
    await expect(enqueueBulkInstall(kit.ts.services.database, actor, [])).rejects.toThrow(/at least one/);
  }, 60_000);
});
