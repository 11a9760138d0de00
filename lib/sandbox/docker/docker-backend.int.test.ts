// The Docker backend on a real engine with the offline busybox image.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { describeDocker } from '@/test/helpers/docker';
import { busyboxRootfs, ensureBusyboxImage, importRootfsImage } from '@/test/helpers/sandbox-images';
import { DockerBackend } from './backend';
import { buildTar } from './tar';

const RUN = randomBytes(6).toString('hex');
const RUN_LABEL = { 'io.skilldock.test-run': RUN };
const DEADLINE = { timeoutMs: 20_000, maxOutputBytes: 1 << 20 };

async function bytesOf(r: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describeDocker('DockerBackend', () => {
  const docker = new Docker();
  // The test run stands for one installation: the sweep looks at its containers only.
  const backend = new DockerBackend({ host: process.env.DOCKER_HOST, installationId: RUN });
  let image = '';
  let id = '';
  let tmp = '';

  const labelled = async () => (await docker.listContainers({ all: true, filters: { label: [`io.skilldock.test-run=${RUN}`] } })).length;
  const labelledVolumes = async () => (await docker.listVolumes({ filters: { label: [`io.skilldock.test-run=${RUN}`] } })).Volumes?.length ?? 0;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-docker-'));
    image = await ensureBusyboxImage(docker);
    const info = await backend.create({ image, labels: RUN_LABEL, limits: { memoryMb: 96, pids: 64, cpu: 0.5 } });
    id = info.id;
  });

  afterAll(async () => {
    for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.test-run=${RUN}`] } })) {
      await docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => {});
    }
    await docker.pruneVolumes({ filters: { label: [`io.skilldock.test-run=${RUN}`] } }).catch(() => {});
    for (const ref of ['skilldock-test/entrypoint:1', 'skilldock-test/no-sleep:1'])
      await docker
        .getImage(ref)
        .remove({ force: true })
        .catch(() => {});
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('creates a labelled, running container with the workspace folders', async () => {
    const info = await backend.get(id);
    expect(info?.state).toBe('running');
    expect(info?.labels['io.skilldock.managed']).toBe('true');
    expect(info?.labels['io.skilldock.idle-ttl-seconds']).toBe('1800');
    expect((await backend.list(RUN_LABEL)).map((s) => s.id)).toEqual([id]);
    const names = (await backend.listFiles(id, '/workspace')).map((e) => `${e.name}:${e.type}`);
    expect(names).toEqual(['input:dir', 'output:dir']);
    const pid1 = await backend.exec(id, { argv: ['cat', '/proc/1/cmdline'], ...DEADLINE });
    expect(pid1.stdout.split('\0')[0]).toMatch(/init/); // docker-init as PID 1, our sleep under it
    const ps = await backend.exec(id, { argv: ['ps', '-o', 'args'], ...DEADLINE });
    expect(ps.stdout).toContain('sleep infinity');
  });

  it('keeps its idle PID 1 even when the image has an ENTRYPOINT', async () => {
    const withEntrypoint = await importRootfsImage(docker, 'skilldock-test/entrypoint:1', busyboxRootfs(), ['ENTRYPOINT ["/bin/false"]']);
    const sb = await backend.create({ image: withEntrypoint, labels: RUN_LABEL });
    expect((await backend.exec(sb.id, { argv: ['ps', '-o', 'args'], ...DEADLINE })).stdout).toContain('sleep infinity');
    await backend.remove(sb.id);
  });

  it('runs an argv with exit code, separate streams and stdin', async () => {
    const r = await backend.exec(id, { argv: ['sh', '-c', 'echo out; echo err >&2; exit 3'], ...DEADLINE });
    expect(r).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', truncated: false, timedOut: false });
    const cat = await backend.exec(id, { argv: ['cat'], stdin: 'hello from stdin', ...DEADLINE });
    expect(cat.stdout).toBe('hello from stdin');
    const arg = await backend.exec(id, { argv: ['echo', '$(id); rm -rf /'], ...DEADLINE });
    expect(arg.stdout).toBe('$(id); rm -rf /\n');
  });

  it('reports the last activity its execs recorded, in get and in list (none before any)', async () => {
    const fresh = new DockerBackend({ host: process.env.DOCKER_HOST, installationId: RUN });
    expect((await fresh.get(id))?.lastActivityAt).toBeUndefined();
    const before = Date.now();
    await fresh.exec(id, { argv: ['true'], ...DEADLINE });
    const got = await fresh.get(id);
    expect(got?.lastActivityAt?.getTime()).toBeGreaterThanOrEqual(before);
    const listed = (await fresh.list()).find((x) => x.id === got?.id);
    expect(listed?.lastActivityAt?.getTime()).toBe(got?.lastActivityAt?.getTime());
  });

  it('brings a stopped or paused sandbox back for an exec', async () => {
    await docker.getContainer(id).stop({ t: 1 });
    expect((await backend.get(id))?.state).toBe('exited');
    expect((await backend.exec(id, { argv: ['true'], ...DEADLINE })).exitCode).toBe(0);
    await docker.getContainer(id).pause();
    expect((await backend.exec(id, { argv: ['echo', 'back'], ...DEADLINE })).stdout).toBe('back\n');
    expect((await backend.get(id))?.state).toBe('running');
  });

  it('opens a terminal with a TTY that runs commands and resizes', async () => {
    const t = await backend.openTerminal(id, { cols: 100, rows: 30 });
    let seen = '';
    const marker = new Promise<void>((resolve) =>
      t.stream.on('data', (c: Buffer) => {
        seen += c.toString();
        if (/cols=100 rows=30/.test(seen)) resolve();
      }),
    );
    t.stream.write('echo cols=$(stty size | cut -d" " -f2) rows=$(stty size | cut -d" " -f1) term=$TERM\n');
    await marker;
    expect(seen).toContain('term=xterm-256color');
    expect(await t.exitCode()).toBeNull();
    const closed = new Promise((r) => t.stream.once('close', r));
    t.stream.write('exit 5\n');
    await closed;
    expect(await t.exitCode()).toBe(5);
  });

  it('kills a command at its timeout and caps its output', async () => {
    const slow = await backend.exec(id, { argv: ['sleep', '30'], timeoutMs: 1000, maxOutputBytes: 100 });
    expect(slow.timedOut).toBe(true);
    expect([124, 137]).toContain(slow.exitCode);
    const loud = await backend.exec(id, { argv: ['head', '-c', '200000', '/dev/zero'], timeoutMs: 20_000, maxOutputBytes: 1000 });
    expect(loud.stdout.length).toBe(1000);
    expect(loud.truncated).toBe(true);
    expect(loud.exitCode).toBe(0);
  });

  it('refuses bad argv before the engine sees it', async () => {
    expect((await rejection(backend.exec(id, { argv: [], ...DEADLINE }))).code).toBe('validation');
    expect((await rejection(backend.exec(id, { argv: ['echo', 'a\0b'], ...DEADLINE }))).code).toBe('validation');
    expect((await rejection(backend.exec(id, { argv: ['x'.repeat(200_000)], ...DEADLINE }))).code).toBe('validation');
  });

  it('round-trips a file through the archive API', async () => {
    const data = randomBytes(300_000);
    await backend.writeFile(id, '/workspace/input/deep/data.bin', data, 0o600);
    const back = await bytesOf(await backend.readFile(id, '/workspace/input/deep/data.bin', 1 << 20));
    expect(createHash('sha256').update(back).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    const listed = await backend.listFiles(id, '/workspace/input/deep/');
    expect(listed).toMatchObject([{ name: 'data.bin', path: '/workspace/input/deep/data.bin', type: 'file', size: 300_000 }]);
    expect((await rejection(backend.readFile(id, '/workspace/input/deep/data.bin', 1000))).code).toBe('sandbox_file_too_large');
    expect((await rejection(backend.readFile(id, '/workspace/nope', 1000))).code).toBe('not_found');
    expect((await rejection(backend.readFile(id, '/proc/self/environ', 1000))).code).toBe('not_allowed');
    expect((await rejection(backend.writeFile(id, '/sys/../dev/x', Buffer.from('x')))).code).toBe('not_allowed');
    expect((await rejection(backend.readFile(id, 'relative/path', 1000))).code).toBe('validation');
  });

  it('shows the memory and pids limits inside the container', async () => {
    const read = async (...paths: string[]) => {
      for (const p of paths) {
        const r = await backend.exec(id, { argv: ['cat', p], ...DEADLINE });
        if (r.exitCode === 0) return r.stdout.trim();
      }
      throw new Error(`none of ${paths.join(', ')} is readable`);
    };
    expect(await read('/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes')).toBe(String(96 * 1024 * 1024));
    expect(await read('/sys/fs/cgroup/pids.max', '/sys/fs/cgroup/pids/pids.max')).toBe('64');
  });

  it('drops every capability but the listed ones', async () => {
    const r = await backend.exec(id, { argv: ['grep', '-E', '^Cap(Eff|Bnd)', '/proc/self/status'], ...DEADLINE });
    // CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID = bits 0,1,3,4,5,6,7.
    expect(r.stdout).toContain('CapEff:\t00000000000000fb');
    expect(r.stdout).toContain('CapBnd:\t00000000000000fb');
    const nnp = await backend.exec(id, { argv: ['grep', 'NoNewPrivs', '/proc/self/status'], ...DEADLINE });
    expect(nnp.stdout).toMatch(/NoNewPrivs:\s+1/);
  });

  it('keeps a read-only rootfs with a noexec /tmp and a writable workspace', async () => {
    const ro = new DockerBackend({ host: process.env.DOCKER_HOST, readOnlyRootfs: true });
    const sb = await ro.create({ image, labels: RUN_LABEL });
    const touch = await ro.exec(sb.id, { argv: ['touch', '/etc/x'], ...DEADLINE });
    expect(touch.exitCode).not.toBe(0);
    expect(touch.stderr).toMatch(/read-only/i);
    const copy = await ro.exec(sb.id, { argv: ['cp', '/bin/busybox', '/tmp/bb'], ...DEADLINE });
    expect(copy.exitCode).toBe(0);
    const run = await ro.exec(sb.id, { argv: ['sh', '-c', '/tmp/bb true'], ...DEADLINE });
    expect(run.exitCode).toBe(126);
    await ro.writeFile(sb.id, '/workspace/output/result.txt', Buffer.from('ok'));
    expect((await bytesOf(await ro.readFile(sb.id, '/workspace/output/result.txt', 100))).toString()).toBe('ok');
    await ro.remove(sb.id);
    expect(await ro.get(sb.id)).toBeNull();
    await ro.remove(sb.id); // absent is not an error
  });

  it('sweeps idle containers by their TTL and never one with an operation in flight', async () => {
    const sweepLabel = { ...RUN_LABEL, 'io.skilldock.test-sweep': RUN };
    const idle = await backend.create({ image, labels: sweepLabel, idleTtlSeconds: 1 });
    const busy = await backend.create({ image, labels: sweepLabel, idleTtlSeconds: 1 });
    const fresh = await backend.create({ image, labels: sweepLabel, idleTtlSeconds: 3600 });
    const later = Date.now() + 60_000;
    // An open terminal holds the lease for as long as its stream is open: an operation in flight.
    const terminal = await backend.openTerminal(busy.id);
    const result = await backend.sweep({ now: () => later, labels: { 'io.skilldock.test-sweep': RUN } });
    expect(result.removed).toEqual([idle.id]);
    expect(result.leased).toBe(1);
    const closed = new Promise((r) => terminal.stream.once('close', r));
    terminal.stream.resume();
    terminal.stream.write('exit\n');
    await closed;
    expect(await backend.get(idle.id)).toBeNull();
    expect((await backend.get(busy.id))?.state).toBe('running');
    // Activity is what this process saw (nothing a sandbox wrote): the fresh one is kept, the busy one goes once idle.
    const again = await backend.sweep({ now: () => later, labels: { 'io.skilldock.test-sweep': RUN } });
    expect(again.removed).toEqual([busy.id]);
    expect((await backend.get(fresh.id))?.state).toBe('running');
  });

  it('removes what it created when the create fails after the container exists', async () => {
    const broken = await importRootfsImage(docker, 'skilldock-test/no-sleep:1', buildTar([{ type: 'dir', name: 'etc' }]));
    const before = await labelled();
    const volumesBefore = await labelledVolumes();
    const e = await rejection(backend.create({ image: broken, labels: RUN_LABEL }));
    expect(e.code).toBe('sandbox_error');
    expect(await labelled()).toBe(before);
    const runtimeErr = await rejection(
      new DockerBackend({ host: process.env.DOCKER_HOST, runtime: 'skilldock-no-such-runtime' }).create({ image, labels: RUN_LABEL }),
    );
    expect(runtimeErr).toMatchObject({ code: 'validation', details: { offered: expect.arrayContaining(['runc']) } });
    expect(await labelled()).toBe(before);
    expect(await labelledVolumes()).toBe(volumesBefore);
    expect(await new DockerBackend({ host: process.env.DOCKER_HOST }).runtimes()).toContain('runc');
  });

  it('refuses a workspace mount outside the allowed roots before any container exists', async () => {
    const root = path.join(tmp, 'allowed');
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(root);
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(root, 'escape'));
    const count = async () => (await docker.listContainers({ all: true })).length;
    const before = await count();
    for (const hostPath of [outside, path.join(root, 'escape'), `${root}/../outside`]) {
      const b = new DockerBackend({ host: process.env.DOCKER_HOST, workspaceMount: { hostPath, allowedRoots: [root] } });
      const e = await rejection(b.create({ image, labels: RUN_LABEL }));
      expect(['not_allowed', 'validation']).toContain(e.code);
    }
    const missingRoot = new DockerBackend({ host: process.env.DOCKER_HOST, workspaceMount: { hostPath: root, allowedRoots: [path.join(tmp, 'gone')] } });
    expect((await rejection(missingRoot.create({ image, labels: RUN_LABEL }))).code).toBe('validation');
    expect(await count()).toBe(before);

    fs.mkdirSync(path.join(root, 'ws'));
    fs.writeFileSync(path.join(root, 'ws', 'from-host.txt'), 'hi');
    const ok = new DockerBackend({ host: process.env.DOCKER_HOST, workspaceMount: { hostPath: path.join(root, 'ws'), allowedRoots: [root] } });
    const sb = await ok.create({ image, labels: RUN_LABEL });
    expect((await ok.exec(sb.id, { argv: ['cat', '/workspace/from-host.txt'], ...DEADLINE })).stdout).toBe('hi');
    await ok.remove(sb.id);
  });

  it('explains an engine that does not answer', async () => {
    const gone = new DockerBackend({ host: `unix://${path.join(tmp, 'no-such.sock')}` });
    const e = await rejection(gone.ping());
    expect(e.code).toBe('sandbox_unreachable');
    expect(e.hint).toMatch(/start the engine/);
    expect((await rejection(backend.exec('0123456789ab', { argv: ['true'], ...DEADLINE }))).code).toBe('sandbox_not_found');
    expect((await rejection(backend.create({ image: 'skilldock-test/never-built:1', labels: RUN_LABEL }))).code).toBe('sandbox_template_missing');
    expect(await backend.imageExists('skilldock-test/never-built:1')).toBe(false);
    expect(await backend.imageExists(image)).toBe(true);
    expect(await rejection(Promise.resolve().then(() => new DockerBackend({ host: 'tcp://127.0.0.1:2376', tlsCertPath: tmp })))).toMatchObject({
      code: 'validation',
    });
    expect(await rejection(Promise.resolve().then(() => new DockerBackend({ host: 'http://evil' })))).toMatchObject({ code: 'validation' });
  });
});
