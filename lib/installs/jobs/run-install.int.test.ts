// The skill install job on a real engine with the offline busybox image: catalog versions
// installed into a config's snapshot that new sandboxes start from, several skills in one job
// with one failing alone, two jobs into one config serialised, and the typed failures that leave
// the image pointer alone and no maintenance container behind.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enqueue, readJobLogs } from '@/lib/jobs/queue';
import type { JobRow } from '@/lib/jobs/types';
import { describeDocker } from '@/test/helpers/docker';
import { installActor as actor, echoSkill, type InstallKit, skillMd, startInstallKit } from '@/test/helpers/install-jobs';
import { servedVersion } from '../records/states';
import * as store from '../records/store';
import { skillInstallJob } from './handlers';
import { runInstall } from './run-install';

describeDocker('skill install job', () => {
  let kit: InstallKit;
  let configId = '';
  const db = () => kit.ts.services.database.db;

  async function install(cfg: string, skills: store.CatalogSkill[]): Promise<{ job: JobRow; records: store.InstallRecord[] }> {
    const begun = [];
    for (const s of skills) begun.push(await kit.begin(cfg, s));
    const queued = await enqueue(kit.ts.services.database, actor, skillInstallJob, { installIds: begun.map((b) => b.id) }, { trusted: true });
    const job = await kit.waitJob(queued.id);
    const records = [];
    for (const b of begun) records.push((await store.getInstall(db(), b.id))!);
    return { job, records };
  }

  beforeAll(async () => {
    kit = await startInstallKit();
    configId = await kit.newConfig('install-job');
  }, 120_000);

  afterAll(async () => {
    await kit?.stop();
  });

  it('installs a skill into a snapshot that new sandboxes start from', async () => {
    const skill = await kit.storeSkill('hello', { 'SKILL.md': skillMd('hello', ['sh']), 'hello.sh': '#!/bin/sh\necho "hello from $1"\n' });
    const { job, records } = await install(configId, [skill]);
    expect(job.error).toBeNull();
    expect(job.state).toBe('succeeded');
    expect(records[0]).toMatchObject({ state: 'ready', imageGeneration: 1, version: skill.version, error: null });
    const active = await store.activeImage(db(), configId);
    expect(active).toMatchObject({ generation: 1, state: 'active' });
    expect(active?.skills).toEqual([{ skillKey: 'hello', version: skill.version, contentHash: skill.contentHash }]);
    expect(await kit.maintenanceLeft(configId)).toEqual([]);

    const r = await kit.runIn(configId, ['/opt/skilldock/skills/hello/hello.sh', 'sandbox']);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'hello from sandbox\n' });
    const env = await kit.runIn(configId, ['sh', '-c', 'echo "$SKILLDOCK_SKILLS_DIR"']);
    expect(env.stdout).toBe('/opt/skilldock/skills\n');

    const lines = (await readJobLogs(kit.ts.services.database, job.id, 0, 5000)).map((l) => l.line);
    expect(lines).toContain('$ sh -n /opt/skilldock/skills/hello/hello.sh');
    expect(lines).toContain('skill 1/1 hello ' + skill.version + ': verify');
    expect(lines.filter((l) => l.startsWith('$ ')).length).toBeGreaterThan(2);

    const again = await store.beginInstall(db(), actor, { configId, skill });
    expect(again.noop).toBe(true);
  }, 180_000);

  it('fails a skill whose required program is missing, naming it, without a new image or a leftover', async () => {
    const skill = await kit.storeSkill('needs-bin', { 'SKILL.md': skillMd('needs-bin', ['definitely-missing-bin']), 'run.sh': 'echo hi\n' });
    const { job, records } = await install(configId, [skill]);
    expect(job.state).toBe('failed');
    expect(records[0].state).toBe('failed');
    expect(records[0].error).toMatchObject({ code: 'missing_binary', stage: 'verify' });
    expect(records[0].error?.message).toContain('definitely-missing-bin');
    const images = await store.listImages(db(), configId);
    expect(images.filter((i) => i.state === 'active').map((i) => i.generation)).toEqual([1]);
    expect(images.every((i) => i.state !== 'building')).toBe(true);
    expect(await kit.maintenanceLeft(configId)).toEqual([]);
  }, 180_000);

  it('fails a script with a syntax error as syntax_error', async () => {
    const skill = await kit.storeSkill('broken', { 'SKILL.md': skillMd('broken', ['sh']), 'broken.sh': '#!/bin/sh\nif then fi (\n' });
    const { job, records } = await install(configId, [skill]);
    expect(job.state).toBe('failed');
    expect(records[0].error).toMatchObject({ code: 'syntax_error', stage: 'verify' });
    expect(records[0].error?.message).toContain('broken.sh');
    expect(await kit.maintenanceLeft(configId)).toEqual([]);
  }, 180_000);

  it('keeps the previous ready version serving when an update fails, and new sandboxes get the old image', async () => {
    const v1 = await kit.storeSkill('hello', { 'SKILL.md': skillMd('hello', ['sh']), 'hello.sh': '#!/bin/sh\necho "hello from $1"\n' });
    const before = await store.activeImage(db(), configId);
    const v2 = await kit.storeSkill('hello', { 'SKILL.md': skillMd('hello', ['sh', 'definitely-missing-bin']), 'hello.sh': '#!/bin/sh\necho v2\n' });
    expect(v2.version).not.toBe(v1.version);
    const { job, records } = await install(configId, [v2]);
    expect(job.state).toBe('failed');
    expect(records[0]).toMatchObject({ state: 'failed', version: v2.version });
    expect(records[0].previousReady).toMatchObject({ version: v1.version, imageGeneration: 1 });
    expect(servedVersion(records[0])).toMatchObject({ version: v1.version });
    expect((await store.activeImage(db(), configId))?.id).toBe(before?.id);
    const r = await kit.runIn(configId, ['/opt/skilldock/skills/hello/hello.sh', 'old']);
    expect(r.stdout).toBe('hello from old\n');
  }, 180_000);

  it('installs several skills in one job and one snapshot; a failing one fails alone and an updated folder is put back', async () => {
    const alpha = await kit.storeSkill('alpha', echoSkill('alpha'));
    const beta = await kit.storeSkill('beta', echoSkill('beta'));
    // An update of the ready hello that fails: its old folder must be what the snapshot holds.
    const bad = await kit.storeSkill('hello', { 'SKILL.md': skillMd('hello', ['sh', 'missing-bin-2']), 'hello.sh': '#!/bin/sh\necho v3\n' });
    const before = await store.activeImage(db(), configId);
    const { job, records } = await install(configId, [alpha, bad, beta]);
    expect(job.state).toBe('failed');
    expect(job.error).toContain('1 of 3');
    expect(job.error).toContain('missing_binary');
    const [a, h, b] = records;
    expect(a).toMatchObject({ state: 'ready', imageGeneration: (before?.generation ?? 0) + 1 });
    expect(b).toMatchObject({ state: 'ready', imageGeneration: a.imageGeneration });
    expect(h).toMatchObject({ state: 'failed', error: { code: 'missing_binary' } });
    const active = await store.activeImage(db(), configId);
    expect(active?.generation).toBe(a.imageGeneration);
    expect(active?.parentGeneration).toBe(before?.generation);
    expect(active?.skills.map((s) => `${s.skillKey}@${s.version}`).sort()).toEqual(
      [`alpha@${alpha.version}`, `beta@${beta.version}`, ...before!.skills.map((s) => `${s.skillKey}@${s.version}`)].sort(),
    );
    expect(await kit.skillsInSandbox(configId)).toEqual(['alpha', 'beta', 'hello']);
    expect((await kit.runIn(configId, ['/opt/skilldock/skills/hello/hello.sh', 'kept'])).stdout).toBe('hello from kept\n');
    expect((await kit.runIn(configId, ['/opt/skilldock/skills/beta/run.sh', 'hi'])).stdout).toBe('beta says hi\n');
    const lines = (await readJobLogs(kit.ts.services.database, job.id, 0, 5000)).map((l) => l.line);
    expect(lines.some((l) => l.startsWith('skill 3/3 beta'))).toBe(true);
    expect(lines.filter((l) => l.startsWith('Committing ')).length).toBe(1);
    expect(await kit.maintenanceLeft(configId)).toEqual([]);
  }, 240_000);

  it('two jobs queued at once into one config run one after the other: the final image holds both skills', async () => {
    const cfg = await kit.newConfig('install-job-lock');
    const one = await kit.storeSkill('one', echoSkill('one'));
    const two = await kit.storeSkill('two', echoSkill('two'));
    const r1 = await kit.begin(cfg, one);
    const r2 = await kit.begin(cfg, two);
    const database = kit.ts.services.database;
    const [j1, j2] = await Promise.all([
      enqueue(database, actor, skillInstallJob, { installIds: [r1.id] }, { trusted: true }),
      enqueue(database, actor, skillInstallJob, { installIds: [r2.id] }, { trusted: true }),
    ]);
    const done = await Promise.all([kit.waitJob(j1.id), kit.waitJob(j2.id)]);
    expect(done.map((j) => j.state)).toEqual(['succeeded', 'succeeded']);
    const images = await store.listImages(db(), cfg);
    expect(images.map((i) => [i.generation, i.parentGeneration, i.state])).toEqual([
      [2, 1, 'active'],
      [1, null, 'superseded'],
    ]);
    expect(images[0].skills.map((s) => s.skillKey).sort()).toEqual(['one', 'two']);
    expect(await kit.skillsInSandbox(cfg)).toEqual(['one', 'two']);
  }, 240_000);

  it('a cancel between steps stops the install: failed as stopped, no image, no maintenance container', async () => {
    const cfg = await kit.newConfig('install-job-cancel');
    const skill = await kit.storeSkill('cancelled', { 'SKILL.md': skillMd('cancelled', ['sh']), 'run.sh': '#!/bin/sh\necho hi\n' });
    const begun = await kit.begin(cfg, skill);
    const hand = await kit.handCtx({ installIds: [begun.id] }, (line) => {
      // The worker aborts the signal the same way when the job is canceled.
      if (line.startsWith('# Find ')) hand.controller.abort(new Error('cancel'));
    });
    await expect(runInstall({ ...kit.ts.services.sandboxes, dataDir: kit.ts.dataDir }, hand.ctx, actor)).rejects.toThrow(/stopped during verify/);
    expect(hand.lines.some((l) => l.startsWith('# Find '))).toBe(true);
    const record = await store.getInstall(db(), begun.id);
    expect(record).toMatchObject({ state: 'failed', error: { code: 'stopped', stage: 'verify' } });
    expect(await store.listImages(db(), cfg)).toEqual([]);
    expect(await kit.maintenanceLeft(cfg)).toEqual([]);
  }, 180_000);

  it('skips records that are no longer installing', async () => {
    const skill = await kit.storeSkill('skipped', echoSkill('skipped'));
    const begun = await kit.begin(configId, skill);
    await store.stop(db(), actor, begun.id);
    const hand = await kit.handCtx({ installIds: [begun.id] });
    const r = await runInstall({ ...kit.ts.services.sandboxes, dataDir: kit.ts.dataDir }, hand.ctx, actor);
    expect(r).toMatchObject({ noop: true, imageGeneration: null, installs: [{ installId: begun.id, outcome: 'skipped' }] });
    expect(hand.lines.some((l) => l.includes('skipped'))).toBe(true);
  }, 60_000);
});
