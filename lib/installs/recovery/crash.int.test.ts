// Crash consistency of skill installs: a child process running the services and their worker is
// SIGKILLed (its whole process group) as an install leaves each stage; after a restart on the same
// database the job has ended, the record is ready or failed with the stage it was interrupted in,
// the config's pointer names a complete snapshot on the engine, and no maintenance sandbox or
// half-made image is left.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '@/db/client';
import { jobs, sandboxConfigs, sandboxLeases } from '@/db/schema';
import { loadConfig } from '@/lib/core/config';
import { getJob } from '@/lib/jobs/queue';
import { CONFIG_LABEL } from '@/lib/sandbox/config/in-use';
import { createConfig } from '@/lib/sandbox/config/store';
import { LABEL_CONFIG } from '@/lib/sandbox/docker/create-spec';
import { execInInstance, startInstance } from '@/lib/sandbox/instances/service';
import { type Services, startServices, stopServices } from '@/lib/services';
import { managedStore } from '@/lib/skills/service/roots';
import { createStagingDir } from '@/lib/skills/store';
import { type TestDatabase, testDatabaseUrl } from '@/test/helpers/db';
import { describeDocker } from '@/test/helpers/docker';
import type { CrashChildInput } from '@/test/helpers/install-crash-child';
import { installActor as actor, echoSkill } from '@/test/helpers/install-jobs';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { waitFor } from '@/test/helpers/services';
import { GENERATION_LABEL, MAINTENANCE_LABEL, SKILLS_ROOT, SNAPSHOT_LABEL } from '../../sandbox/images/snapshot-names';
import * as store from '../records/store';
import { installSkill } from '../service';
import { recoverInstalls } from './recovery';

const CHILD = path.resolve('test/helpers/install-crash-child.ts');

/**
 * The stages a skill install reports, in order, and what the record holds when the process dies
 * as the install leaves it. (deps and install-specs only run for skills with packages; the busybox
 * image has no package manager, and they end like copy and verify: one exec in the container.)
 */
const CASES = [
  { stage: 'boot', killedAs: { state: 'installing', stage: 'boot' } },
  { stage: 'plan', killedAs: { state: 'installing', stage: 'plan' } },
  { stage: 'copy', killedAs: { state: 'installing', stage: 'copy' } },
  { stage: 'verify', killedAs: { state: 'installing', stage: 'verify' } },
  { stage: 'cleanup', killedAs: { state: 'installing', stage: 'cleanup' } },
  // Committed, not yet switched: the half-made image exists on the engine. The restart comes while
  // the dead worker's lease still runs, so the boot pass must spare it all until the lease is reaped.
  { stage: 'snapshot', killedAs: { state: 'installing', stage: 'snapshot' }, leaseLeft: true },
  // Switched in one transaction with the record; the job itself never ended.
  { stage: 'switch', killedAs: { state: 'ready', stage: 'done' } },
];

describeDocker('SIGKILL of the server during each install stage', () => {
  const docker = new Docker();
  let tdb: TestDatabase;
  let dataDir = '';
  let env: Record<string, string> = {};
  let configId = '';
  let serving: store.SandboxImage;

  const boot = (): Promise<Services> => startServices({ config: loadConfig(env), worker: true });
  const serviceDeps = (s: Services) => ({ database: s.database, dataDir, sandboxes: s.sandboxes });
  const maintenanceLeft = async () =>
    (await docker.listContainers({ all: true, filters: { label: [MAINTENANCE_LABEL, `${CONFIG_LABEL}=${configId}`] } })).filter(
      (c) => c.Labels[MAINTENANCE_LABEL],
    );
  const snapshotsOnEngine = () => docker.listImages({ filters: { label: [`${SNAPSHOT_LABEL}=true`, `${CONFIG_LABEL}=${configId}`] } });

  async function storeSkill(s: Services, slug: string): Promise<void> {
    const st = managedStore(dataDir);
    const dir = await createStagingDir(st);
    for (const [rel, text] of Object.entries(echoSkill(slug))) await fsp.writeFile(path.join(dir, rel), text, { mode: rel.endsWith('.sh') ? 0o755 : 0o644 });
    await s.skillStore.install({ slug, stagedDir: dir, force: true });
  }

  /** Runs the child until it pauses as the install leaves `stage`, then kills its process group. */
  function crashAt(stage: string): Promise<Record<string, unknown>> {
    const marker = path.join(dataDir, `crash-${stage}.json`);
    const input: CrashChildInput = { env, configId, skillKey: `crash-${stage}`, stage, marker };
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/server-only-hook.mjs', CHILD, JSON.stringify(input)], {
        stdio: ['ignore', 'ignore', 'pipe'],
        cwd: process.cwd(),
        detached: true,
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const read = () => (fs.existsSync(marker) ? (JSON.parse(fs.readFileSync(marker, 'utf8')) as Record<string, unknown>) : null);
      let killed = false;
      const kill = () => {
        if (killed || !child.pid) return;
        killed = true;
        process.kill(-child.pid, 'SIGKILL');
      };
      // A bound on waiting, so a child that hangs does not outlive the test.
      const limit = setTimeout(kill, 90_000);
      const timer = setInterval(() => read()?.paused && kill(), 20);
      child.on('exit', (code, signal) => {
        clearInterval(timer);
        clearTimeout(limit);
        const m = read();
        if (!m) return reject(new Error(`the child ended (${code ?? signal}) before the install left ${stage}: ${stderr.slice(-2000)}`));
        resolve({ ...m, signal });
      });
    });
  }

  beforeAll(async () => {
    const image = await ensureBusyboxImage(docker);
    tdb = await testDatabaseUrl();
    dataDir = tdb.dataDir ?? (await fsp.mkdtemp(path.join(os.tmpdir(), 'skilldock-crash-')));
    env = {
      SKILLDOCK_DATA_DIR: dataDir,
      ...(tdb.url ? { DATABASE_URL: tdb.url } : {}),
      // The dead process's job is ended by the next one's reaper once this runs out.
      SKILLDOCK_JOB_LEASE_MS: '1000',
      SKILLDOCK_NETWORK_ENFORCEMENT: 'off',
      SKILLDOCK_SCAN_WORKERS: '1',
      LOG_LEVEL: 'error',
    };
    const s = await boot();
    try {
      const db = s.database.db;
      const deps = { db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } };
      const cfg = await createConfig(deps, actor, {
        name: 'crash',
        backend: 'docker',
        description: '',
        config: { image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: 128, pidsLimit: 100, cpuLimit: 0.5 },
      } as never);
      await db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
      configId = cfg.id;
      for (const slug of ['crash-base', ...CASES.map((c) => `crash-${c.stage}`)]) await storeSkill(s, slug);
      // A first generation, so each crash has a serving image to keep (or to move away from).
      const started = await installSkill(serviceDeps(s), actor, configId, { skillKey: 'crash-base' });
      const job = await waitFor(async () => {
        const j = await getJob(s.database, started.jobId ?? '');
        return j.state !== 'queued' && j.state !== 'running' ? j : null;
      }, 'the first install');
      expect(job.state).toBe('succeeded');
      serving = (await store.activeImage(db, configId)) as store.SandboxImage;
      expect(serving).toMatchObject({ generation: 1, state: 'active' });
    } finally {
      await stopServices(s);
    }
  }, 120_000);

  afterAll(async () => {
    if (configId) {
      for (const label of [CONFIG_LABEL, LABEL_CONFIG])
        for (const c of await docker.listContainers({ all: true, filters: { label: [`${label}=${configId}`] } }))
          await docker
            .getContainer(c.Id)
            .remove({ force: true, v: true })
            .catch(() => {});
      // A generation's parent only goes after its children: a few passes.
      for (let pass = 0; pass < 4; pass++) {
        const images = await docker.listImages({ all: true, filters: { label: [`${CONFIG_LABEL}=${configId}`] } });
        if (!images.length) break;
        for (const img of images)
          await docker
            .getImage(img.Id)
            .remove({ force: true })
            .catch(() => {});
      }
    }
    await tdb?.cleanup();
    if (tdb && !tdb.dataDir && dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it.each(CASES)(
    'SIGKILL as the install leaves $stage: the job ends, the pointer stays on a complete image, nothing is left',
    async ({ stage, killedAs, leaseLeft }) => {
      const skillKey = `crash-${stage}`;
      expect(await crashAt(stage)).toMatchObject({ paused: stage, signal: 'SIGKILL' });

      // What the kill left, read before anything recovers it.
      const left = await openDatabase({ databaseUrl: tdb.url, pgliteDir: path.join(dataDir, 'pglite') });
      let jobId = '';
      try {
        const [record] = await store.listInstalls(left.db, { configId, skillKey });
        expect(record).toMatchObject(killedAs);
        jobId = record.jobId ?? '';
        expect((await getJob(left, jobId)).state).toBe('running');
        const building = (await store.listImages(left.db, configId)).filter((i) => i.state === 'building');
        if (stage === 'snapshot') {
          expect(building).toHaveLength(1);
          expect((await snapshotsOnEngine()).flatMap((i) => i.RepoTags ?? [])).toContain(building[0].plannedRef);
        } else expect(building).toEqual([]);
        // The killed process's sandbox leases (its maintenance container) run out a lease lifetime
        // after its last renewal; the test moves their expiry instead of waiting for it.
        await left.db.update(sandboxLeases).set({ expiresAt: new Date(Date.now() - 1000) });
        if (leaseLeft)
          await left.db
            .update(jobs)
            .set({ leaseExpiresAt: new Date(Date.now() + 3_600_000) })
            .where(eq(jobs.id, jobId));
      } finally {
        await left.close();
      }
      expect(await maintenanceLeft()).toHaveLength(1);

      const s = await boot();
      try {
        const db = s.database.db;
        if (leaseLeft) {
          expect((await store.listInstalls(db, { configId, skillKey }))[0]).toMatchObject(killedAs);
          expect((await store.listImages(db, configId)).filter((i) => i.state === 'building')).toHaveLength(1);
          expect(await maintenanceLeft()).toHaveLength(1);
          await db
            .update(jobs)
            .set({ leaseExpiresAt: new Date(Date.now() - 1000) })
            .where(eq(jobs.id, jobId));
        }
        // The reaper ends the job once the dead worker's lease runs out; the recovery it triggers
        // follows. The wait is only a bound: what did not happen is named by the assertions below.
        await waitFor(
          async () => {
            const job = await getJob(s.database, jobId);
            const images = await store.listImages(db, configId);
            const [record] = await store.listInstalls(db, { configId, skillKey });
            return job.state !== 'running' && record.state !== 'installing' && !images.some((i) => i.state === 'building') && !(await maintenanceLeft()).length;
          },
          'the job to end and its leftovers to be recovered',
          30_000,
        ).catch(() => undefined);
        const job = await getJob(s.database, jobId);
        expect(job.state).toBe('failed');
        expect(job.error).toMatch(/stopped responding; its lease expired/);

        const [record] = await store.listInstalls(db, { configId, skillKey });
        const active = (await store.activeImage(db, configId)) as store.SandboxImage;
        if (killedAs.state === 'ready') {
          expect(record).toMatchObject({ state: 'ready', imageGeneration: active.generation, error: null });
          expect(active.generation).toBeGreaterThan(serving.generation);
          expect(active.skills.map((k) => k.skillKey)).toContain(skillKey);
        } else {
          expect(record).toMatchObject({ state: 'failed', error: { code: 'interrupted', stage } });
          expect(record.error?.message).toContain(`install was interrupted during ${stage}`);
          expect(active).toMatchObject({ id: serving.id, imageId: serving.imageId });
        }

        // The pointer names a committed snapshot of this config that the engine has.
        const seen = await docker.getImage(active.plannedRef).inspect();
        expect(seen.Id).toBe(active.imageId);
        expect(seen.Config.Labels).toMatchObject({ [SNAPSHOT_LABEL]: 'true', [CONFIG_LABEL]: configId, [GENERATION_LABEL]: String(active.generation) });
        // Every snapshot on the engine is one a row serves or keeps; no planned image is left.
        const rows = await store.listImages(db, configId);
        const kept = new Set(rows.filter((i) => i.state === 'active' || i.state === 'superseded').map((i) => i.imageId));
        for (const img of await snapshotsOnEngine()) expect(kept.has(img.Id)).toBe(true);
        expect(rows.filter((i) => i.state === 'building')).toEqual([]);
        expect(await maintenanceLeft()).toEqual([]);
        if (killedAs.state === 'ready') {
          const inst = await startInstance(s.sandboxes, actor, configId);
          const r = await execInInstance(s.sandboxes, actor, inst.id, { argv: ['sh', `${SKILLS_ROOT}/${skillKey}/run.sh`, 'hi'] });
          expect(r.stdout).toBe(`${skillKey} says hi\n`);
        }
        expect(await recoverInstalls(s.sandboxes)).toMatchObject({ failed: [], images: [], reclaimed: [], problems: [] });
      } finally {
        await stopServices(s);
      }
    },
    120_000,
  );
});
