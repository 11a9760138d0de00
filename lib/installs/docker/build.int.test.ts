// The Docker side of a skill install on a real engine with the offline test images: maintenance
// container, skill copy, live steps and stop, snapshot commit, and the reclaim of a crash's leftovers.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONFIG_LABEL } from '@/lib/sandbox/config/in-use';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { runExec } from '@/lib/sandbox/docker/exec';
import { describeDocker } from '@/test/helpers/docker';
import { DEBIAN_RELEASE, debianPythonImage, ensureBusyboxImage, ensureDebianPythonImage, imageCacheDir } from '@/test/helpers/sandbox-images';
import { isMaintenanceLabels, MAINTENANCE_LABEL, snapshotRef } from '../../sandbox/images/snapshot-names';
import {
  closeMaintenance,
  commitSnapshot,
  copySkill,
  imageExists,
  type Maintenance,
  openMaintenance,
  reclaimLeftovers,
  runStep,
  type StepStream,
} from './build';
import { MAX_LINE_CHARS } from './step';

const RUN = randomBytes(6).toString('hex');
const TEST_LABEL = 'io.skilldock.test-run';
const RUN_LABEL = { [TEST_LABEL]: RUN };
const CONFIG_ID = `test-${RUN}`;
const SPEC = { limits: { memoryMb: 128, pids: 64, cpu: 0.5 }, network: 'none', labels: RUN_LABEL, idleTtlSeconds: 600 };
const EXEC = { timeoutMs: 20_000, maxOutputBytes: 1 << 20 };

type Line = [StepStream, string];

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const debianCached = () =>
  fs.existsSync(imageCacheDir()) && fs.readdirSync(imageCacheDir()).some((f) => f.startsWith(`debian-${DEBIAN_RELEASE}-minbase-`) && f.endsWith('.tar'));

describeDocker('skill install on Docker', () => {
  const docker = new Docker();
  const backend = new DockerBackend({ host: process.env.DOCKER_HOST, configId: CONFIG_ID });
  const conn = backend.conn;
  const ref1 = snapshotRef(CONFIG_ID, 1);
  const ref2 = snapshotRef(CONFIG_ID, 2);
  let image = '';
  let m: Maintenance;
  let sandboxId = '';

  beforeAll(async () => {
    image = await ensureBusyboxImage(docker);
    m = await openMaintenance(backend, { configId: CONFIG_ID, image, spec: SPEC, runId: `run-${RUN}` });
  });

  afterAll(async () => {
    for (const c of await docker.listContainers({ all: true, filters: { label: [`${TEST_LABEL}=${RUN}`] } }))
      await docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => {});
    for (const img of await docker.listImages({ filters: { label: [`${TEST_LABEL}=${RUN}`] } }))
      await docker
        .getImage(img.Id)
        .remove({ force: true })
        .catch(() => {});
  });

  it('starts the maintenance container labelled, under the config spec', async () => {
    const c = await docker.getContainer(m.containerId).inspect();
    expect(c.State.Running).toBe(true);
    expect(c.Config.Labels).toMatchObject({ [MAINTENANCE_LABEL]: `run-${RUN}`, [CONFIG_LABEL]: CONFIG_ID, 'io.skilldock.config-id': CONFIG_ID });
    expect(c.HostConfig.Memory).toBe(128 * 1024 * 1024);
    expect(c.HostConfig.NetworkMode).toBe('none');
    expect(c.HostConfig.ReadonlyRootfs).toBe(false);
    expect(m.parentImageId).toBe((await docker.getImage(image).inspect()).Id);
  });

  it('copies a skill, replacing an existing folder of that name', async () => {
    await copySkill(m, { name: 'demo', files: [{ path: 'stale.txt', data: Buffer.from('old') }] });
    await copySkill(m, {
      name: 'demo',
      files: [
        { path: 'script.sh', data: Buffer.from('#!/bin/sh\necho from-script\n'), mode: 0o750 },
        { path: 'lib/deep/data.txt', data: Buffer.from('payload') },
      ],
    });
    const r = await runExec(conn, m.containerId, { argv: ['sh', '-c', 'cd /opt/skilldock/skills && find . | sort && stat -c %a demo/script.sh'], ...EXEC });
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      '.',
      './demo',
      './demo/lib',
      './demo/lib/deep',
      './demo/lib/deep/data.txt',
      './demo/script.sh',
      '750',
    ]);
  });

  it('refuses paths that leave the skill folder before sending anything', async () => {
    await expect(copySkill(m, { name: 'demo', files: [{ path: '../evil', data: Buffer.from('x') }] })).rejects.toThrow(/leaves the skill folder/);
    await expect(copySkill(m, { name: '../x', files: [] })).rejects.toThrow(/folder name/);
  });

  it('runs a step with its lines in order, cutting an overlong one', async () => {
    const lines: Line[] = [];
    const script =
      'echo one; echo two >&2; echo three; echo done > /opt/skilldock/marker; /opt/skilldock/skills/demo/script.sh; head -c 5000 /dev/zero | tr "\\0" x; echo; echo "$STEP_VAR"; exit 3';
    const run = runStep(m, { argv: ['sh', '-c', script], env: { STEP_VAR: 'from-env' }, timeoutMs: 30_000 }, (s, l) => lines.push([s, l]));
    const r = await run.done;
    expect(r).toMatchObject({ exitCode: 3, stopped: false, timedOut: false });
    const out = lines.filter(([s]) => s === 'stdout').map(([, l]) => l);
    expect(out).toEqual(['one', 'three', 'from-script', `${'x'.repeat(MAX_LINE_CHARS)}…`, 'from-env']);
    expect(lines.filter(([s]) => s === 'stderr')).toEqual([['stderr', 'two']]);
  });

  it('stops a running step and its processes are gone', async () => {
    const lines: Line[] = [];
    const run = runStep(m, { argv: ['sh', '-c', 'echo started; sleep 100'], timeoutMs: 60_000 }, (s, l) => lines.push([s, l]));
    await until('the step to start', () => lines.length > 0);
    const before = await runExec(conn, m.containerId, { argv: ['ps', '-o', 'args'], ...EXEC });
    expect(before.stdout).toContain('sleep 100');
    await run.stop();
    const r = await run.done;
    expect(r.stopped).toBe(true);
    expect(r.exitCode).not.toBe(0);
    const after = await runExec(conn, m.containerId, { argv: ['ps', '-o', 'args'], ...EXEC });
    expect(after.stdout).not.toContain('sleep 100');
  });

  it('commits a snapshot that keeps the skill and the image config, without the workspace and /tmp', async () => {
    const fill = runStep(
      m,
      { argv: ['sh', '-c', 'echo a > /workspace/junk; echo b > /tmp/junk; mkdir /tmp/d; touch /tmp/.hidden'], timeoutMs: 10_000 },
      () => {},
    );
    expect((await fill.done).exitCode).toBe(0);
    const snap = await commitSnapshot(m, { plannedRef: ref1, generation: 1, labels: { 'io.skilldock.test-extra': 'yes' } });
    expect(snap.ref).toBe(ref1);
    expect(snap.sizeBytes).toBeGreaterThan(0);
    const img = await docker.getImage(ref1).inspect();
    expect(img.Id).toBe(snap.imageId);
    expect(snap.layers).toBe(img.RootFS.Layers?.length);
    expect(snap.layers).toBe(2);
    expect(img.Config.Labels).toMatchObject({
      'skilldock.snapshot': 'true',
      [CONFIG_LABEL]: CONFIG_ID,
      'skilldock.generation': '1',
      'skilldock.parent': m.parentImageId,
      'io.skilldock.test-extra': 'yes',
    });
    expect(img.Config.Cmd).toEqual(['/bin/sh']);
    expect(img.Config.Entrypoint ?? []).toEqual([]);
    expect(img.Config.WorkingDir).not.toBe('/workspace');
    expect(img.Config.Env).toEqual(['PATH=/bin']);

    const sb = await backend.create({ image: ref1, labels: RUN_LABEL });
    sandboxId = sb.id;
    expect(isMaintenanceLabels(sb.labels)).toBe(false);
    expect(sb.labels['skilldock.snapshot']).toBe('true');
    const r = await backend.exec(sb.id, {
      argv: ['sh', '-c', 'stat -c %a /opt/skilldock/skills/demo/script.sh; cat /opt/skilldock/marker; ls -A /tmp; echo --; ls -A /workspace'],
      ...EXEC,
    });
    // /workspace/input and /workspace/output are what every new sandbox gets.
    expect(r.stdout).toBe('750\ndone\n--\ninput\noutput\n');
  });

  it('closes the maintenance container for good', async () => {
    await closeMaintenance(m);
    await expect(docker.getContainer(m.containerId).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await closeMaintenance(m);
    expect(() => runStep(m, { argv: ['true'], timeoutMs: 1000 }, () => {})).toThrow(/closed/);
  });

  it('reclaims a leftover maintenance container and a planned image, never the active or a used one', async () => {
    const left = await openMaintenance(backend, { configId: CONFIG_ID, image: ref1, spec: SPEC, runId: `left-${RUN}` });
    await commitSnapshot(left, { plannedRef: ref2, generation: 2 });
    await left.releaseLease(); // as after a crash: nobody holds it any more
    // Another installation's config on the same engine, as unheld: not this store's to judge.
    const theirs = await openMaintenance(backend, { configId: `other-${RUN}`, image: ref1, spec: SPEC, runId: `theirs-${RUN}` });
    await theirs.releaseLease();
    const r = await reclaimLeftovers(conn, { plannedRefs: [ref1, ref2], keepRefs: [ref1], configIds: [CONFIG_ID], activity: backend.activity });
    expect(r.containers).toEqual([left.containerId]);
    expect((await docker.getContainer(theirs.containerId).inspect()).State.Running).toBe(true);
    await closeMaintenance(theirs);
    expect(r.images).toEqual([ref2]);
    await expect(docker.getContainer(left.containerId).inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect(await imageExists(conn, ref2)).toBe(false);
    expect(await imageExists(conn, ref1)).toBe(true);
    // A sandbox from the snapshot inherits a blanked maintenance label: it is not a leftover.
    expect((await docker.getContainer(sandboxId).inspect()).State.Running).toBe(true);

    const used = await reclaimLeftovers(conn, { plannedRefs: [ref1], keepRefs: [], configIds: [CONFIG_ID], activity: backend.activity });
    expect(used).toMatchObject({ images: [], inUse: [ref1] });
    expect(await imageExists(conn, ref1)).toBe(true);
  });

  it('sees a snapshot deleted behind its back', async () => {
    await backend.remove(sandboxId);
    await docker.getImage(ref1).remove();
    expect(await imageExists(conn, ref1)).toBe(false);
  });

  it.skipIf(!debianCached())(
    'installs a python skill in the Debian image',
    async () => {
      const py = await ensureDebianPythonImage(docker);
      expect(py).toBe(debianPythonImage());
      const mp = await openMaintenance(backend, {
        configId: CONFIG_ID,
        image: py,
        spec: { ...SPEC, limits: { memoryMb: 256, pids: 64, cpu: 1 } },
        runId: `py-${RUN}`,
      });
      try {
        await copySkill(mp, {
          name: 'pyskill',
          files: [{ path: 'main.py', data: Buffer.from('for i in range(3):\n    print("line", i, flush=True)\n'), mode: 0o755 }],
        });
        const lines: string[] = [];
        const r = await runStep(mp, { argv: ['python3', '/opt/skilldock/skills/pyskill/main.py'], timeoutMs: 30_000 }, (_s, l) => lines.push(l)).done;
        expect(r.exitCode).toBe(0);
        expect(lines).toEqual(['line 0', 'line 1', 'line 2']);
        const slow = runStep(mp, { argv: ['python3', '-c', 'import time; print("up", flush=True); time.sleep(100)'], timeoutMs: 60_000 }, (_s, l) =>
          lines.push(l),
        );
        await until('python to start', () => lines.includes('up'));
        await slow.stop();
        expect((await slow.done).stopped).toBe(true);
        const left = await runExec(conn, mp.containerId, { argv: ['sh', '-c', 'cat /proc/[0-9]*/cmdline | tr "\\0" " "'], ...EXEC });
        expect(left.stdout).not.toContain('time.sleep');
        const snap = await commitSnapshot(mp, { plannedRef: snapshotRef(CONFIG_ID, 3), generation: 3 });
        expect((await docker.getImage(snap.imageId).inspect()).Config.Cmd).toEqual(['/bin/bash']);
      } finally {
        await closeMaintenance(mp);
      }
    },
    180_000,
  );
});
