// The skill install job on a real engine with the offline busybox image: a stored catalog version
// installed into a config's snapshot that new sandboxes start from, and the typed failures that
// leave the image pointer alone and no maintenance container behind.
import fsp from 'node:fs/promises';
import path from 'node:path';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandboxConfigs } from '@/db/schema';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ALL_PERMISSIONS } from '@/lib/auth/permissions';
import { newId } from '@/lib/core/ids';
import { enqueue, getJob, readJobLogs } from '@/lib/jobs/queue';
import type { JobContext, JobRow } from '@/lib/jobs/types';
import { createConfig } from '@/lib/sandbox/config/store';
import { execInInstance, startInstance } from '@/lib/sandbox/instances/service';
import { managedStore } from '@/lib/skills/service/roots';
import { createStagingDir, installVersion } from '@/lib/skills/store';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { skillInstallJob } from './job';
import { runInstall } from './run-install';
import { MAINTENANCE_LABEL } from './snapshot-names';
import { servedVersion } from './states';
import * as store from './store';

const actor: Actor = { ...systemActor, kind: 'user', label: 'install-job-test', permissions: new Set(ALL_PERMISSIONS) };

function skillMd(name: string, bins: string[]): string {
  return `---\nname: ${name}\ndescription: A test skill for the install job.\nmetadata: { "openclaw": { "requires": { "bins": ${JSON.stringify(bins)} } } }\n---\n\n# ${name}\n\nRun hello.sh.\n`;
}

describeDocker('skill install job', () => {
  const docker = new Docker();
  let ts: TestServices;
  let image = '';
  let configId = '';
  const configs: string[] = [];

  async function newConfig(name: string): Promise<string> {
    const s = ts.services;
    const deps = { db: s.database.db, secrets: s.secrets, usage: s.sandboxUsage, validate: { tlsRoots: [], workspaceRoots: [] } };
    const cfg = await createConfig(deps, actor, {
      name,
      backend: 'docker',
      description: '',
      config: { image, host: process.env.DOCKER_HOST ?? '', memoryLimitMb: 128, pidsLimit: 100, cpuLimit: 0.5 },
    } as never);
    await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
    configs.push(cfg.id);
    return cfg.id;
  }

  /** Stores a version of a skill in the managed store, as an import does. */
  async function storeSkill(slug: string, files: Record<string, string>, mode = 0o755) {
    const st = managedStore(ts.dataDir);
    const dir = await createStagingDir(st);
    for (const [rel, text] of Object.entries(files)) {
      await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await fsp.writeFile(path.join(dir, rel), text, { mode: rel.endsWith('.sh') ? mode : 0o644 });
    }
    const v = await installVersion(st, { slug, stagedDir: dir, force: true });
    return { key: slug, name: slug, version: v.version, contentHash: v.contentHash };
  }

  async function install(cfg: string, skill: store.CatalogSkill): Promise<{ job: JobRow; record: store.InstallRecord }> {
    const begun = await store.beginInstall(ts.services.database.db, actor, { configId: cfg, skill });
    expect(begun.noop).toBe(false);
    const queued = await enqueue(ts.services.database, actor, skillInstallJob, { installId: begun.install.id, skillName: skill.name }, { trusted: true });
    const job = await waitFor(
      async () => {
        const j = await getJob(ts.services.database, queued.id);
        return j.state === 'succeeded' || j.state === 'failed' || j.state === 'canceled' ? j : null;
      },
      'the install job',
      120_000,
    );
    const record = await store.getInstall(ts.services.database.db, begun.install.id);
    return { job, record: record! };
  }

  const maintenanceLeft = async (cfg: string) =>
    (await docker.listContainers({ all: true, filters: { label: [MAINTENANCE_LABEL, `io.skilldock.config-id=${cfg}`] } })).filter(
      (c) => c.Labels[MAINTENANCE_LABEL],
    );

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    ts = await startTestServices({ worker: true });
    configId = await newConfig('install-job');
  }, 120_000);

  afterAll(async () => {
    for (const cfg of configs) {
      for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.config-id=${cfg}`] } }))
        await docker
          .getContainer(c.Id)
          .remove({ force: true, v: true })
          .catch(() => {});
      for (const img of await docker.listImages({ filters: { label: [`io.skilldock.config-id=${cfg}`] } }))
        await docker
          .getImage(img.Id)
          .remove({ force: true })
          .catch(() => {});
    }
    await ts?.stop();
  });

  it('installs a skill into a snapshot that new sandboxes start from', async () => {
    const skill = await storeSkill('hello', { 'SKILL.md': skillMd('hello', ['sh']), 'hello.sh': '#!/bin/sh\necho "hello from $1"\n' });
    const { job, record } = await install(configId, skill);
    expect(job.error).toBeNull();
    expect(job.state).toBe('succeeded');
    expect(record).toMatchObject({ state: 'ready', imageGeneration: 1, version: skill.version, error: null });
    const active = await store.activeImage(ts.services.database.db, configId);
    expect(active).toMatchObject({ generation: 1, state: 'active' });
    expect(active?.skills).toEqual([{ skillKey: 'hello', version: skill.version, contentHash: skill.contentHash }]);
    expect(await maintenanceLeft(configId)).toEqual([]);

    const inst = await startInstance(ts.services.sandboxes, actor, configId);
    expect(inst.image).toBe(active?.plannedRef);
    const r = await execInInstance(ts.services.sandboxes, actor, inst.id, { argv: ['/opt/skilldock/skills/hello/hello.sh', 'sandbox'] });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'hello from sandbox\n' });
    const env = await execInInstance(ts.services.sandboxes, actor, inst.id, { argv: ['sh', '-c', 'echo "$SKILLDOCK_SKILLS_DIR"'] });
    expect(env.stdout).toBe('/opt/skilldock/skills\n');

    const lines = (await readJobLogs(ts.services.database, job.id, 0, 5000)).map((l) => l.line);
    expect(lines).toContain('$ sh -n /opt/skilldock/skills/hello/hello.sh');
    expect(lines.filter((l) => l.startsWith('$ ')).length).toBeGreaterThan(2);

    const again = await store.beginInstall(ts.services.database.db, actor, { configId, skill });
    expect(again.noop).toBe(true);
  }, 180_000);

  it('fails a skill whose required program is missing, naming it, without a new image or a leftover', async () => {
    const skill = await storeSkill('needs-bin', { 'SKILL.md': skillMd('needs-bin', ['definitely-missing-bin']), 'run.sh': 'echo hi\n' });
    const { job, record } = await install(configId, skill);
    expect(job.state).toBe('failed');
    expect(record.state).toBe('failed');
    expect(record.error).toMatchObject({ code: 'missing_binary', stage: 'verify' });
    expect(record.error?.message).toContain('definitely-missing-bin');
    const images = await store.listImages(ts.services.database.db, configId);
    expect(images.filter((i) => i.state === 'active').map((i) => i.generation)).toEqual([1]);
    expect(images.every((i) => i.state !== 'building')).toBe(true);
    expect(await maintenanceLeft(configId)).toEqual([]);
  }, 180_000);

  it('fails a script with a syntax error as syntax_error', async () => {
    const skill = await storeSkill('broken', { 'SKILL.md': skillMd('broken', ['sh']), 'broken.sh': '#!/bin/sh\nif then fi (\n' });
    const { job, record } = await install(configId, skill);
    expect(job.state).toBe('failed');
    expect(record.error).toMatchObject({ code: 'syntax_error', stage: 'verify' });
    expect(record.error?.message).toContain('broken.sh');
    expect(await maintenanceLeft(configId)).toEqual([]);
  }, 180_000);

  it('keeps the previous ready version serving when an update fails, and new sandboxes get the old image', async () => {
    const v1 = await storeSkill('hello', { 'SKILL.md': skillMd('hello', ['sh']), 'hello.sh': '#!/bin/sh\necho "hello from $1"\n' });
    const before = await store.activeImage(ts.services.database.db, configId);
    const v2 = await storeSkill('hello', { 'SKILL.md': skillMd('hello', ['sh', 'definitely-missing-bin']), 'hello.sh': '#!/bin/sh\necho v2\n' });
    expect(v2.version).not.toBe(v1.version);
    const { job, record } = await install(configId, v2);
    expect(job.state).toBe('failed');
    expect(record).toMatchObject({ state: 'failed', version: v2.version });
    expect(record.previousReady).toMatchObject({ version: v1.version, imageGeneration: 1 });
    expect(servedVersion(record)).toMatchObject({ version: v1.version });
    expect((await store.activeImage(ts.services.database.db, configId))?.id).toBe(before?.id);
    const inst = await startInstance(ts.services.sandboxes, actor, configId);
    expect(inst.image).toBe(before?.plannedRef);
    const r = await execInInstance(ts.services.sandboxes, actor, inst.id, { argv: ['/opt/skilldock/skills/hello/hello.sh', 'old'] });
    expect(r.stdout).toBe('hello from old\n');
  }, 180_000);

  it('a cancel between steps stops the install: failed as stopped, no image, no maintenance container', async () => {
    const cfg = await newConfig('install-job-cancel');
    const skill = await storeSkill('cancelled', { 'SKILL.md': skillMd('cancelled', ['sh']), 'run.sh': '#!/bin/sh\necho hi\n' });
    const db = ts.services.database.db;
    const begun = await store.beginInstall(db, actor, { configId: cfg, skill });
    const controller = new AbortController();
    const lines: string[] = [];
    const ctx: JobContext<{ installId: string }> = {
      job: { id: newId(), createdBy: null, createdByLabel: actor.label } as JobRow,
      params: { installId: begun.install.id },
      signal: controller.signal,
      database: ts.services.database,
      log: (line) => {
        lines.push(line);
        // The worker aborts the signal the same way when the job is canceled.
        if (line.startsWith('# Find ')) controller.abort(new Error('cancel'));
      },
      progress: () => {},
      run: () => Promise.reject(new Error('not used')),
      critical: (fn) => fn(),
    };
    await expect(runInstall({ ...ts.services.sandboxes, dataDir: ts.dataDir }, ctx, actor)).rejects.toThrow(/stopped during verify/);
    expect(lines.some((l) => l.startsWith('# Find '))).toBe(true);
    const record = await store.getInstall(db, begun.install.id);
    expect(record).toMatchObject({ state: 'failed', error: { code: 'stopped', stage: 'verify' } });
    expect(await store.listImages(db, cfg)).toEqual([]);
    expect(await maintenanceLeft(cfg)).toEqual([]);
  }, 180_000);
});
