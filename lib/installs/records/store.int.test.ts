// The install records and snapshot image records on a real database (PGlite and PostgreSQL):
// the no-op reinstall, updates that keep the previous version serving, stop and retry with notes,
// removal, the catalog's delete guard, image generations and their collection, and two installs
// of one skill racing for one config.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDb } from '@/db/client';
import { auditLog, jobs, sandboxConfigs, sandboxImages, sandboxSkillInstalls } from '@/db/schema';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { type Actor, systemActor } from '../../auth/actor';
import { hasCode, isAppError } from '../../core/errors';
import { newId } from '../../core/ids';
import { imageRefProblem } from '../../sandbox/config/image-ref';
import { servedVersion } from './states';
import * as store from './store';

let t: TestServices;
let db: AppDb;
const actor: Actor = { ...systemActor, label: 'installs-test' };
const HASH = { a: 'a'.repeat(64), b: 'b'.repeat(64), c: 'c'.repeat(64) };
let n = 0;

async function newConfig(): Promise<{ id: string; name: string }> {
  // Zero-padded, so the database's order of names is the order they were made in.
  const name = `installs-${String(++n).padStart(3, '0')}`;
  const [row] = await db
    .insert(sandboxConfigs)
    .values({ id: newId(), name, backend: 'docker', config: { image: 'busybox:1.36' }, createdBy: 'test', updatedBy: 'test' })
    .returning();
  return { id: row.id, name };
}

async function newJob(): Promise<string> {
  const id = newId();
  await db.insert(jobs).values({ id, kind: 'test.install', title: 'install', createdByLabel: 'test' });
  return id;
}

const skill = (key: string, version: string, contentHash: string) => ({ key, name: `Skill ${key}`, version, contentHash });

/** Plans and activates the config's next image generation. */
async function activeGeneration(configId: string): Promise<number> {
  const planned = await store.planImage(db, configId);
  await store.activateImage(db, planned.id, { imageId: `sha256:${planned.generation.toString(16).padStart(64, '0')}` });
  return planned.generation;
}

const auditOf = async (id: string) =>
  (await db.select().from(auditLog).where(eq(auditLog.targetId, id)).orderBy(asc(auditLog.id))).map((r) => ({
    action: r.action,
    before: r.before,
    after: r.after,
  }));

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!isAppError(e)) throw new Error(`expected an AppError, got ${String(e)}`);
  return { code: e.code, message: e.message, details: e.details };
}

beforeAll(async () => {
  t = await startTestServices({ worker: false });
  db = t.services.database.db;
}, 120_000);
afterAll(async () => t?.stop());

describe('install records', () => {
  it('installs, succeeds, and installing the same content again writes nothing', async () => {
    const cfg = await newConfig();
    const jobId = await newJob();
    const first = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('weather', 'v1', HASH.a), notes: '  use the mirror  ', jobId });
    expect(first.noop).toBe(false);
    expect(first.install).toMatchObject({
      state: 'installing',
      version: 'v1',
      contentHash: HASH.a,
      notes: 'use the mirror',
      jobId,
      previousReady: null,
      createdBy: 'installs-test',
    });
    const id = first.install.id;
    expect((await store.recordProgress(db, id, { stage: 'seeding', percent: 28 })).percent).toBe(28);
    const gen = await activeGeneration(cfg.id);
    const ready = await store.succeed(db, actor, id, { imageGeneration: gen });
    expect(ready).toMatchObject({ state: 'ready', imageGeneration: gen, stage: 'done', percent: 100, previousReady: null });

    const again = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('weather', 'v1', HASH.a) });
    expect(again.noop).toBe(true);
    expect(again.install).toEqual(ready);
    expect(await store.getInstall(db, id)).toEqual(ready);
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(['sandbox.skill.install', 'sandbox.skill.succeed']);
    expect(audit[0].after).toMatchObject({ state: 'installing', version: 'v1', contentDigest: HASH.a });
    expect(audit[1]).toMatchObject({ before: { state: 'installing' }, after: { state: 'ready' } });
  });

  it('an update keeps the ready version serving, a failure keeps it, and success lets it go', async () => {
    const cfg = await newConfig();
    const { install } = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('pdf', 'v1', HASH.a) });
    const gen1 = await activeGeneration(cfg.id);
    await store.succeed(db, actor, install.id, { imageGeneration: gen1 });

    const update = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('pdf', 'v2', HASH.b) });
    expect(update.noop).toBe(false);
    expect(update.install).toMatchObject({ id: install.id, state: 'installing', version: 'v2', contentHash: HASH.b, imageGeneration: null });
    const v1 = { version: 'v1', contentHash: HASH.a, imageGeneration: gen1 };
    expect(update.install.previousReady).toEqual(v1);
    expect(servedVersion(update.install)).toEqual(v1);

    await store.recordProgress(db, install.id, { stage: 'verify_note', percent: 80 });
    const failed = await store.fail(db, actor, install.id, { code: 'verify_failed', message: 'ffprobe is missing' });
    expect(failed).toMatchObject({ state: 'failed', version: 'v2', error: { code: 'verify_failed', message: 'ffprobe is missing', stage: 'verify_note' } });
    expect(failed.previousReady).toEqual(v1);
    expect(servedVersion(failed)).toEqual(v1);

    const retried = await store.retry(db, actor, install.id, { notes: 'install ffmpeg from apt first' });
    expect(retried).toMatchObject({ state: 'installing', version: 'v2', notes: 'install ffmpeg from apt first', error: null });
    expect(retried.previousReady).toEqual(v1);

    const gen2 = await activeGeneration(cfg.id);
    const done = await store.succeed(db, actor, install.id, { imageGeneration: gen2 });
    expect(done).toMatchObject({ state: 'ready', version: 'v2', imageGeneration: gen2, previousReady: null, error: null });
    expect(servedVersion(done)).toEqual({ version: 'v2', contentHash: HASH.b, imageGeneration: gen2 });
    const audit = await auditOf(install.id);
    expect(audit.map((a) => a.action)).toEqual([
      'sandbox.skill.install',
      'sandbox.skill.succeed',
      'sandbox.skill.install',
      'sandbox.skill.fail',
      'sandbox.skill.retry',
      'sandbox.skill.succeed',
    ]);
    expect(audit[3].after).toMatchObject({ state: 'failed', reason: 'ffprobe is missing', previousReady: { version: 'v1', contentDigest: HASH.a } });
    expect(audit[4].after).toMatchObject({ reason: 'install ffmpeg from apt first' });
  });

  it('refuses a second install while one runs, and a ready generation that does not exist', async () => {
    const cfg = await newConfig();
    const { install } = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('git', 'v1', HASH.a) });
    for (const again of [HASH.a, HASH.b]) {
      const r = await refusal(store.beginInstall(db, actor, { configId: cfg.id, skill: skill('git', 'v2', again) }));
      expect(r).toMatchObject({ code: 'invalid_state', message: 'This install is still running; stop it first.' });
    }
    expect((await refusal(store.beginRemove(db, actor, install.id))).code).toBe('invalid_state');
    expect((await refusal(store.succeed(db, actor, install.id, { imageGeneration: 7 }))).message).toMatch(/Generation 7 .* is not built or active/);
    expect(await store.getInstall(db, install.id)).toMatchObject({ state: 'installing', version: 'v1', contentHash: HASH.a });
    expect((await auditOf(install.id)).length).toBe(1);
  });

  it('stops a running install, names the job to cancel, and retries it with notes', async () => {
    const cfg = await newConfig();
    const jobId = await newJob();
    const { install } = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('ocr', 'v1', HASH.a), jobId });
    await store.recordProgress(db, install.id, { stage: 'agent', percent: 50 });
    const stopped = await store.stop(db, actor, install.id);
    expect(stopped.cancelJobId).toBe(jobId);
    expect(stopped.install).toMatchObject({ state: 'failed', error: { code: 'stopped', message: 'Stopped by installs-test.', stage: 'agent' } });
    // Stopping again changes nothing and writes no audit row.
    const twice = await store.stop(db, actor, install.id);
    expect(twice).toEqual({ install: stopped.install, cancelJobId: null });

    const tooLong = await refusal(store.retry(db, actor, install.id, { notes: 'x'.repeat(2001) }));
    expect(tooLong.code).toBe('validation');
    expect(tooLong.message).toMatch(/at most 2000 characters \(these have 2001\)/);
    expect(await store.getInstall(db, install.id)).toEqual(stopped.install);

    const job2 = await newJob();
    const retried = await store.retry(db, actor, install.id, { notes: 'tesseract needs the eng data', jobId: job2 });
    expect(retried).toMatchObject({ state: 'installing', notes: 'tesseract needs the eng data', jobId: job2, error: null, percent: 0, stage: null });
    expect((await auditOf(install.id)).map((a) => a.action)).toEqual(['sandbox.skill.install', 'sandbox.skill.stop', 'sandbox.skill.retry']);
    // A deleted job leaves the record, without its job.
    await db.delete(jobs).where(eq(jobs.id, job2));
    expect((await store.getInstall(db, install.id))?.jobId).toBeNull();
  });

  it('disables and enables, and a failed removal goes back to the state it began in', async () => {
    const cfg = await newConfig();
    const { install } = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('slack', 'v1', HASH.a) });
    await store.succeed(db, actor, install.id, { imageGeneration: await activeGeneration(cfg.id) });
    expect((await store.disable(db, actor, install.id)).state).toBe('disabled');
    expect((await refusal(store.retry(db, actor, install.id))).message).toMatch(/disabled.*enable it first/);
    const removing = await store.beginRemove(db, actor, install.id);
    expect(removing).toMatchObject({ state: 'removing', removingFrom: 'disabled' });
    expect(servedVersion(removing)).toBeNull();
    await store.recordProgress(db, install.id, { stage: 'removing', percent: 30 });
    const back = await store.fail(db, actor, install.id, { code: 'commit_failed', message: 'the engine refused the commit', stage: 'commit' });
    expect(back).toMatchObject({ state: 'disabled', removingFrom: null, error: { code: 'commit_failed', stage: 'commit' } });
    expect((await store.enable(db, actor, install.id)).state).toBe('ready');

    await store.beginRemove(db, actor, install.id);
    await store.finishRemove(db, actor, install.id);
    expect(await store.getInstall(db, install.id)).toBeNull();
    expect((await auditOf(install.id)).map((a) => a.action)).toEqual([
      'sandbox.skill.install',
      'sandbox.skill.succeed',
      'sandbox.skill.disable',
      'sandbox.skill.remove',
      'sandbox.skill.fail',
      'sandbox.skill.enable',
      'sandbox.skill.remove',
      'sandbox.skill.removed',
    ]);
    expect((await refusal(store.finishRemove(db, actor, install.id))).code).toBe('not_found');
  });

  it('a new install during a removal takes the record over and names the removal job', async () => {
    const cfg = await newConfig();
    const { install } = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('maps', 'v1', HASH.a) });
    const gen = await activeGeneration(cfg.id);
    await store.succeed(db, actor, install.id, { imageGeneration: gen });
    const removalJob = await newJob();
    await store.beginRemove(db, actor, install.id, { jobId: removalJob });
    const taken = await store.beginInstall(db, actor, { configId: cfg.id, skill: skill('maps', 'v2', HASH.b) });
    expect(taken.cancelJobId).toBe(removalJob);
    expect(taken.install).toMatchObject({ state: 'installing', version: 'v2', removingFrom: null, previousReady: { version: 'v1', imageGeneration: gen } });
    // The removal job's late report is refused: the record is no longer being removed.
    expect((await refusal(store.finishRemove(db, actor, install.id))).code).toBe('invalid_state');
  });

  it('refuses a missing config, a malformed skill and unknown records, writing nothing', async () => {
    expect((await refusal(store.beginInstall(db, actor, { configId: 'nope', skill: skill('x', 'v1', HASH.a) }))).code).toBe('not_found');
    const cfg = await newConfig();
    for (const bad of [skill('../x', 'v1', HASH.a), skill('x', 'v 1', HASH.a), skill('x', 'v1', 'ABC'), { ...skill('x', 'v1', HASH.a), name: ' ' }])
      expect((await refusal(store.beginInstall(db, actor, { configId: cfg.id, skill: bad }))).code).toBe('validation');
    expect(await store.listInstalls(db, { configId: cfg.id })).toEqual([]);
    expect((await refusal(store.stop(db, actor, newId()))).code).toBe('not_found');
  });
});

describe('the catalog side', () => {
  it('the delete guard lists the configs, and marks older hashes updatable', async () => {
    const [c1, c2, other] = [await newConfig(), await newConfig(), await newConfig()];
    const a = await store.beginInstall(db, actor, { configId: c1.id, skill: skill('summarize', 'v1', HASH.a) });
    await store.beginInstall(db, actor, { configId: c2.id, skill: skill('summarize', 'v2', HASH.b) });
    await store.beginInstall(db, actor, { configId: other.id, skill: skill('unrelated', 'v1', HASH.a) });

    const guard = await store.assertNoInstalls(db, 'summarize').then(
      () => null,
      (e: unknown) => e,
    );
    expect(hasCode(guard, 'conflict')).toBe(true);
    if (!hasCode(guard, 'conflict')) return;
    expect(guard.status).toBe(409);
    expect(guard.message).toContain(`(${c1.name}, ${c2.name})`);
    const listed = ((guard.details?.installs ?? []) as { configName: string }[]).map((u) => u.configName);
    expect(listed).toEqual([c1.name, c2.name]);
    await expect(store.assertNoInstalls(db, 'never-installed')).resolves.toBeUndefined();

    expect(await store.markUpdatable(db, 'summarize', HASH.b)).toBe(1);
    const bySkill = await store.listInstalls(db, { skillKey: 'summarize' });
    expect(bySkill.map((r) => [r.configId, r.updatable]).sort()).toEqual(
      [
        [c1.id, true],
        [c2.id, false],
      ].sort(),
    );
    expect((await store.listInstalls(db, { skillKey: 'unrelated' }))[0].updatable).toBe(false);
    // A newer hash again: both are now behind.
    expect(await store.markUpdatable(db, 'summarize', HASH.c)).toBe(2);
    expect(await store.markUpdatable(db, 'summarize', HASH.a)).toBe(1);
    expect((await store.getInstall(db, a.install.id))?.updatable).toBe(false);

    // Deleting a config takes its records with it.
    await db.delete(sandboxConfigs).where(eq(sandboxConfigs.id, c2.id));
    expect((await store.installsOfSkill(db, 'summarize')).map((u) => u.configName)).toEqual([c1.name]);
  });
});

describe('snapshot images', () => {
  it('plans generations, keeps one active, supersedes the older one and collects it after the grace', async () => {
    const cfg = await newConfig();
    const contents = [{ skillKey: 'weather', version: 'v1', contentHash: HASH.a }];
    const g1 = await store.planImage(db, cfg.id, { skills: contents });
    expect(g1).toMatchObject({ generation: 1, parentGeneration: null, state: 'building', imageId: null, skills: contents });
    expect(imageRefProblem(g1.plannedRef)).toBeNull();
    expect(g1.plannedRef).toMatch(new RegExp(`/${cfg.id}:g1$`));
    expect(await store.activeImage(db, cfg.id)).toBeNull();
    const first = await store.activateImage(db, g1.id, { imageId: `sha256:${'1'.repeat(64)}`, sizeBytes: 5_000_000, layers: 3 });
    expect(first.superseded).toBeNull();
    expect(first.image).toMatchObject({ state: 'active', sizeBytes: 5_000_000, layers: 3 });

    const g2 = await store.planImage(db, cfg.id);
    expect(g2).toMatchObject({ generation: 2, parentGeneration: 1 });
    const second = await store.activateImage(db, g2.id, { imageId: `sha256:${'2'.repeat(64)}`, skills: [] });
    expect(second.superseded).toMatchObject({ id: g1.id, state: 'superseded' });
    const supersededAt = second.superseded?.supersededAt;
    if (!supersededAt) throw new Error('no superseded_at');
    expect((await store.activeImage(db, cfg.id))?.id).toBe(g2.id);
    expect(
      await db
        .select()
        .from(sandboxImages)
        .where(and(eq(sandboxImages.configId, cfg.id), eq(sandboxImages.state, 'active'))),
    ).toHaveLength(1);

    const graceMs = 24 * 3600_000;
    const at = (ms: number) => new Date(supersededAt.getTime() + ms);
    expect(await store.collectableImages(db, { graceMs, now: at(graceMs - 1000), configId: cfg.id })).toEqual([]);
    expect((await store.collectableImages(db, { graceMs, now: at(graceMs), configId: cfg.id })).map((i) => i.id)).toEqual([g1.id]);

    expect((await refusal(store.markImageDeleted(db, g2.id))).message).toMatch(/activate another generation before deleting/);
    expect((await refusal(store.activateImage(db, g1.id, { imageId: `sha256:${'1'.repeat(64)}` }))).code).toBe('invalid_state');
    expect((await store.markImageDeleted(db, g1.id)).state).toBe('deleted');
    expect(await store.collectableImages(db, { graceMs, now: at(graceMs), configId: cfg.id })).toEqual([]);
    // Generations are never reused, not even after a delete.
    const g3 = await store.planImage(db, cfg.id);
    expect(g3).toMatchObject({ generation: 3, parentGeneration: 2 });
    expect((await store.listImages(db, cfg.id)).map((i) => [i.generation, i.state])).toEqual([
      [3, 'building'],
      [2, 'active'],
      [1, 'deleted'],
    ]);
    // An abandoned plan can be deleted without ever being active.
    expect((await store.markImageDeleted(db, g3.id)).state).toBe('deleted');
    expect((await refusal(store.planImage(db, 'no-such-config'))).code).toBe('not_found');
  });
});

describe('racing installs', () => {
  it('of the same skill into the same config: exactly one wins, the others get 409', async () => {
    for (let round = 0; round < 5; round++) {
      const cfg = await newConfig();
      const hashes = [HASH.a, HASH.b, HASH.a, HASH.c];
      const results = await Promise.allSettled(hashes.map((h, i) => store.beginInstall(db, actor, { configId: cfg.id, skill: skill('race', `v${i + 1}`, h) })));
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((r) => hasCode(r.reason, 'invalid_state'))).toEqual([true, true, true]);
      const rows = await db.select().from(sandboxSkillInstalls).where(eq(sandboxSkillInstalls.configId, cfg.id));
      expect(rows).toHaveLength(1);
      expect((await auditOf(rows[0].id)).map((a) => a.action)).toEqual(['sandbox.skill.install']);
    }
  });
});
