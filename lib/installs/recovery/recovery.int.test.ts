// Install recovery on a real engine: what a crash leaves (records whose job is gone, planned images
// that never became active, maintenance containers) is made consistent, while the active image and
// everything a live job (another replica's, here) still owns stay as they are.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs, sandboxImages, sandboxSkillInstalls } from '@/db/schema';
import { newId } from '@/lib/core/ids';
import { publish } from '@/lib/jobs/queue';
import { CONFIG_LABEL } from '@/lib/sandbox/config/in-use';
import { describeDocker } from '@/test/helpers/docker';
import { installActor as actor, echoSkill, type InstallKit, startInstallKit } from '@/test/helpers/install-jobs';
import { busyboxRootfs, importRootfsImage } from '@/test/helpers/sandbox-images';
import { waitFor } from '@/test/helpers/services';
import { MAINTENANCE_LABEL, SNAPSHOT_LABEL } from '../../sandbox/images/snapshot-names';
import { maintenanceRunId } from '../generations/build';
import * as store from '../records/store';
import { recoverInstalls } from './recovery';

describeDocker('skill install recovery', () => {
  let kit: InstallKit;
  let cfgA = '';
  let cfgB = '';
  const refs: string[] = [];
  const containers: string[] = [];
  const db = () => kit.ts.services.database.db;
  const labelsOf = (cfg: string) => ({ [CONFIG_LABEL]: cfg, 'io.skilldock.config-id': cfg });

  const exists = async (ref: string) =>
    kit.docker
      .getImage(ref)
      .inspect()
      .then(
        () => true,
        (e: { statusCode?: number }) => (e.statusCode === 404 ? false : Promise.reject(e)),
      );
  const containerExists = async (id: string) =>
    kit.docker
      .getContainer(id)
      .inspect()
      .then(
        () => true,
        (e: { statusCode?: number }) => (e.statusCode === 404 ? false : Promise.reject(e)),
      );

  /** A half-made snapshot as a commit would leave it: Skilldock's labels, the planned name. */
  async function snapshotOnEngine(ref: string, cfg: string): Promise<void> {
    refs.push(ref);
    await importRootfsImage(kit.docker, ref, busyboxRootfs(), [`LABEL ${SNAPSHOT_LABEL}=true`, `LABEL io.skilldock.config-id=${cfg}`]);
  }

  async function maintenanceContainer(cfg: string, runId: string): Promise<string> {
    const c = await kit.docker.createContainer({ Image: kit.image, Cmd: ['sleep', '3600'], Labels: { ...labelsOf(cfg), [MAINTENANCE_LABEL]: runId } });
    containers.push(c.id);
    await c.start();
    return c.id;
  }

  async function insertJob(state: 'failed' | 'running', kind: string, params: Record<string, unknown>): Promise<string> {
    const id = newId();
    await db()
      .insert(jobs)
      .values({
        id,
        kind,
        title: 'recovery test',
        state,
        params,
        createdByLabel: actor.label,
        // Another replica's run, alive: its lease is far from running out, so no reaper takes it.
        ...(state === 'running' ? { leaseOwner: 'other-replica', leaseExpiresAt: new Date(Date.now() + 3_600_000), attempts: 1 } : {}),
      });
    return id;
  }

  const s: Record<string, string> = {};

  beforeAll(async () => {
    kit = await startInstallKit();
    cfgA = await kit.newConfig('recovery-a');
    cfgB = await kit.newConfig('recovery-b');
    const busybox = await kit.docker.getImage(kit.image).inspect();

    // cfgA: an active generation 1, two half-made generations, one deleted whose image lingered.
    const g1 = await store.planImage(db(), cfgA);
    const [repo, tag] = g1.plannedRef.split(':');
    await kit.docker.getImage(kit.image).tag({ repo, tag });
    refs.push(g1.plannedRef);
    await store.activateImage(db(), g1.id, { imageId: busybox.Id });
    const g2 = await store.planImage(db(), cfgA);
    await snapshotOnEngine(g2.plannedRef, cfgA);
    const g3 = await store.planImage(db(), cfgA);
    const g4 = await store.planImage(db(), cfgA);
    await snapshotOnEngine(g4.plannedRef, cfgA);
    await store.markImageDeleted(db(), g4.id);
    Object.assign(s, { g1: g1.id, g1Ref: g1.plannedRef, g1Image: busybox.Id, g2: g2.id, g2Ref: g2.plannedRef, g3: g3.id, g4Ref: g4.plannedRef });

    // An install that crashed in deps, its job id never attached.
    const orphan = await kit.begin(cfgA, await kit.storeSkill('orphan', echoSkill('orphan')));
    await store.recordProgress(db(), orphan.id, { stage: 'deps', percent: 30 });
    // Begun a minute ago: past the grace a record being started has before its job is queued.
    await db()
      .update(sandboxSkillInstalls)
      .set({ updatedAt: new Date(Date.now() - 60_000) })
      .where(eq(sandboxSkillInstalls.id, orphan.id));
    // Begun just now, its job not queued yet (a retry between its two writes): not the pass's to end.
    s.starting = (await kit.begin(cfgB, await kit.storeSkill('starting', echoSkill('starting')))).id;
    // A removal of a ready skill whose job ended failed (reaped) while the record still said removing.
    const ready = await kit.begin(cfgA, await kit.storeSkill('was-ready', echoSkill('was-ready')));
    await db().update(sandboxSkillInstalls).set({ state: 'ready', imageGeneration: 1 }).where(eq(sandboxSkillInstalls.id, ready.id));
    const deadRemove = await insertJob('failed', 'skill.remove', { installId: ready.id });
    await store.beginRemove(db(), actor, ready.id, { jobId: deadRemove });
    await store.recordProgress(db(), ready.id, { stage: 'snapshot', percent: 85 });
    s.orphan = orphan.id;
    s.removing = ready.id;
    s.deadContainer = await maintenanceContainer(cfgA, maintenanceRunId('skill.install', 'dead-job'));

    // cfgB: a live install job of another replica, with its building row, image and container.
    const live = await kit.begin(cfgB, await kit.storeSkill('live', echoSkill('live')));
    const liveJob = await insertJob('running', 'skill.install', { installIds: [live.id] });
    await db().update(sandboxSkillInstalls).set({ jobId: liveJob }).where(eq(sandboxSkillInstalls.id, live.id));
    const gb = await store.planImage(db(), cfgB);
    await snapshotOnEngine(gb.plannedRef, cfgB);
    Object.assign(s, { live: live.id, liveJob, gb: gb.id, gbRef: gb.plannedRef });
    s.liveContainer = await maintenanceContainer(cfgB, maintenanceRunId('skill.install', liveJob));
  }, 180_000);

  afterAll(async () => {
    for (const id of containers)
      await kit?.docker
        .getContainer(id)
        .remove({ force: true })
        .catch(() => {});
    for (const ref of refs)
      await kit?.docker
        .getImage(ref)
        .remove()
        .catch(() => {});
    await kit?.stop();
  });

  it('ends orphaned records failed and reclaims half-made images and containers; the active image and live work stay', async () => {
    const report = await recoverInstalls(kit.ts.services.sandboxes);
    expect(report.problems).toEqual([]);

    const orphan = await store.getInstall(db(), s.orphan);
    expect(orphan).toMatchObject({ state: 'failed', error: { code: 'interrupted', stage: 'deps' } });
    expect(orphan?.error?.message).toContain('install was interrupted during deps');
    const removing = await store.getInstall(db(), s.removing);
    expect(removing).toMatchObject({ state: 'ready', imageGeneration: 1, error: { code: 'interrupted', stage: 'snapshot' } });
    expect(removing?.error?.message).toContain('removal was interrupted during snapshot (its job ended failed');
    expect(report.failed.map((f) => f.id).sort()).toEqual([s.orphan, s.removing].sort());
    expect(report.starting).toEqual([s.starting]);
    expect(await store.getInstall(db(), s.starting)).toMatchObject({ state: 'installing', error: null });

    const rows = new Map((await db().select().from(sandboxImages)).map((r) => [r.id, r]));
    expect(rows.get(s.g1)).toMatchObject({ state: 'active', imageId: s.g1Image });
    expect(await exists(s.g1Ref)).toBe(true);
    expect(rows.get(s.g2)?.state).toBe('deleted');
    expect(rows.get(s.g3)?.state).toBe('deleted');
    expect(await exists(s.g2Ref)).toBe(false);
    expect(report.images.filter((i) => i.configId === cfgA).map((i) => [i.id, i.engineImageRemoved])).toEqual(
      expect.arrayContaining([
        [s.g2, true],
        [s.g3, false],
      ]),
    );
    expect(await exists(s.g4Ref)).toBe(false);
    expect(report.reclaimed.flatMap((r) => r.images)).toContain(s.g4Ref);
    expect(await containerExists(s.deadContainer)).toBe(false);

    expect(await store.getInstall(db(), s.live)).toMatchObject({ state: 'installing', jobId: s.liveJob });
    expect(rows.get(s.gb)?.state).toBe('building');
    expect(await exists(s.gbRef)).toBe(true);
    expect(await containerExists(s.liveContainer)).toBe(true);

    // A sandbox from the active image still runs.
    expect((await kit.runIn(cfgA, ['echo', 'still-serving'])).stdout).toBe('still-serving\n');
    const again = await recoverInstalls(kit.ts.services.sandboxes);
    expect(again).toMatchObject({ failed: [], images: [], reclaimed: [], starting: [s.starting] });
    // Past its grace with still no job, it is ended like any orphan.
    await db()
      .update(sandboxSkillInstalls)
      .set({ updatedAt: new Date(Date.now() - 60_000) })
      .where(eq(sandboxSkillInstalls.id, s.starting));
    const later = await recoverInstalls(kit.ts.services.sandboxes);
    expect(later.failed.map((f) => f.id)).toEqual([s.starting]);
    expect(await store.getInstall(db(), s.starting)).toMatchObject({ state: 'failed', error: { code: 'interrupted' } });
  }, 180_000);

  it('a job the reaper ends later is recovered then: its record fails, its image and container go', async () => {
    await db().update(jobs).set({ state: 'failed', leaseOwner: null, leaseExpiresAt: null, finishedAt: new Date() }).where(eq(jobs.id, s.liveJob));
    await publish(kit.ts.services.database, { t: 'state', id: s.liveJob });
    const rec = await waitFor(
      async () => {
        const r = await store.getInstall(db(), s.live);
        return r?.state === 'failed' ? r : null;
      },
      'the live install to be recovered',
      60_000,
    );
    expect(rec.error).toMatchObject({ code: 'interrupted', stage: null });
    expect(rec.error?.message).toContain('before it started (its job ended failed');
    const gb = await waitFor(
      async () => {
        const [row] = await db().select().from(sandboxImages).where(eq(sandboxImages.id, s.gb));
        return row.state === 'deleted' ? row : null;
      },
      'the building row to be deleted',
      60_000,
    );
    expect(gb.state).toBe('deleted');
    await waitFor(async () => !(await containerExists(s.liveContainer)), 'the container to be reclaimed', 60_000);
    expect(await exists(s.gbRef)).toBe(false);
    expect(await store.activeImage(db(), cfgA)).toMatchObject({ id: s.g1 });
  }, 180_000);
});
