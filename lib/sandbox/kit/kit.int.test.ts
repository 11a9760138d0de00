// The control kit on a real engine with the offline busybox image: mounted read-only where no
// sandbox process can change it, and the only program Skilldock's own control runs — a sandbox
// that plants its own `timeout`, `kill`, `find`, `sed`, … never gets them run by Skilldock.
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTracking } from '@/lib/policy/exec/sessions';
import { openDockerPty } from '@/lib/terminal/docker-pty';
import { describeDocker } from '@/test/helpers/docker';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { DockerBackend } from '../docker/backend';
import { KIT_BIN, kitBinary } from './build';
import { fillKitVolume } from './volume';

const RUN = randomBytes(6).toString('hex');
const RUN_LABEL = { 'io.skilldock.test-run': RUN };
const DEADLINE = { timeoutMs: 20_000, maxOutputBytes: 1 << 20 };
/** The programs a control script of the old kind would find by name in the sandbox's PATH. */
const PLANTED = ['timeout', 'kill', 'sed', 'cut', 'tr', 'grep', 'find', 'stat', 'touch', 'mkdir', 'head', 'rm', 'ps'];

async function bytesOf(r: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describeDocker('the control kit', () => {
  const docker = new Docker();
  const backend = new DockerBackend({ host: process.env.DOCKER_HOST });
  let id = '';
  const sh = (script: string, timeoutMs = 20_000) => backend.exec(id, { argv: ['/bin/busybox', 'sh', '-c', script], ...DEADLINE, timeoutMs });
  /** Processes by command line, read with the image's own busybox by absolute path (the test's view, not Skilldock's). */
  const processes = async () => (await sh('for d in /proc/[0-9]*; do /bin/busybox tr "\\0" " " < $d/cmdline 2>/dev/null; echo; done')).stdout;
  const pwned = async () => (await backend.listFiles(id, '/tmp')).map((e) => e.name).filter((n) => n.startsWith('pwned-'));

  beforeAll(async () => {
    const image = await ensureBusyboxImage(docker);
    id = (await backend.create({ image, labels: RUN_LABEL, limits: { memoryMb: 96, pids: 128, cpu: 0.5 } })).id;
  });

  afterAll(async () => {
    for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.test-run=${RUN}`] } }))
      await docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => {});
  });

  it('is mounted read-only: root in the sandbox cannot replace, remove or move it', async () => {
    for (const attempt of [
      `echo trojan > ${KIT_BIN}`,
      `rm -f ${KIT_BIN}`,
      'mv /.skilldock-kit /kit-moved',
      `cp /bin/busybox ${KIT_BIN}`,
      'mount -o remount,rw /.skilldock-kit',
      'umount /.skilldock-kit',
    ]) {
      const r = await sh(attempt);
      expect(r.exitCode, attempt).not.toBe(0);
    }
    const inSandbox = await bytesOf(await backend.readFile(id, KIT_BIN, 8 << 20));
    const built = await kitBinary();
    expect(createHash('sha256').update(inSandbox).digest('hex')).toBe(createHash('sha256').update(built.bytes).digest('hex'));
    // The listing API does not show Skilldock's own mount.
    expect((await backend.listFiles(id, '/')).map((e) => e.path)).not.toContain('/.skilldock-kit');
  });

  it('is never rewritten under running sandboxes: another process finding the same kit leaves the volume alone', async () => {
    const now = (await backend.exec(id, { argv: [KIT_BIN, 'now'], ...DEADLINE })).stdout.trim().split('.');
    // What another process does once: fill the same volume again.
    await fillKitVolume(backend.conn, await ensureBusyboxImage(docker));
    // Nothing in the volume changed since (a rewrite, even of the same bytes, moves the inode's change time).
    const changed = await backend.exec(id, { argv: [KIT_BIN, 'changed', now[0], now[1], '10', '/.skilldock-kit'], ...DEADLINE });
    expect(changed).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('never runs a program the sandbox planted: timeouts, listings, tracking and terminal kills use the kit alone', async () => {
    const plant = PLANTED.map(
      (n) =>
        `/bin/busybox rm -f /bin/${n}; printf '#!/bin/busybox sh\\n/bin/busybox touch /tmp/pwned-${n}\\nexec /bin/busybox ${n} "$@"\\n' > /bin/${n}; chmod 755 /bin/${n}`,
    ).join('; ');
    expect((await sh(plant)).exitCode).toBe(0);
    // The trap works when the planted program is what runs:
    await backend.exec(id, { argv: ['/bin/head', '-c1', '/dev/null'], ...DEADLINE });
    expect(await pwned()).toEqual(['pwned-head']);
    await sh('/bin/busybox rm -f /tmp/pwned-head');

    const slow = await backend.exec(id, { argv: ['/bin/busybox', 'sleep', '30'], timeoutMs: 1000, maxOutputBytes: 100 });
    expect(slow).toMatchObject({ exitCode: 137, timedOut: true });
    expect((await backend.listFiles(id, '/workspace')).map((e) => e.name)).toEqual(expect.arrayContaining(['input', 'output']));
    const tracker = await startTracking(backend, id, ['/', '/workspace', '/tmp']);
    expect(tracker).not.toBeNull();
    await backend.exec(id, { argv: ['/bin/busybox', 'sh', '-c', 'echo x > /workspace/new.sh'], ...DEADLINE });
    expect(await tracker?.collect()).toContain('/workspace/new.sh');

    const pty = await openDockerPty(backend, { sandboxId: id, sessionId: `kit-${RUN}`, userId: 'kit-test', cols: 80, rows: 24, env: {} });
    await pty.write(Buffer.from('/bin/busybox sleep 301 &\n/bin/busybox setsid /bin/busybox sleep 302 &\n'));
    await expect.poll(processes, { timeout: 10_000 }).toContain('sleep 302');
    await pty.kill();
    const left = await processes();
    expect(left).not.toContain('sleep 301');
    expect(left).not.toContain('sleep 302');

    expect(await pwned()).toEqual([]);
  });

  it('ends everything an exec started when the exec ends: daemons, setsid and double forks included', async () => {
    const r = await sh('setsid /bin/busybox sleep 311 & (/bin/busybox nohup /bin/busybox sleep 312 >/dev/null 2>&1 &) ; echo started');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'started\n' });
    const left = await processes();
    expect(left).not.toContain('sleep 311');
    expect(left).not.toContain('sleep 312');
    const timed = await sh('/bin/busybox sleep 313 & /bin/busybox sleep 314', 1000);
    expect(timed.timedOut).toBe(true);
    expect(await processes()).not.toMatch(/sleep 31[34]/);
  });

  it('finds what an exec changed by inode change time: back-dated, moved and linked files included', async () => {
    expect((await sh('echo old > /workspace/before.txt')).exitCode).toBe(0);
    const tracker = await startTracking(backend, id, ['/', '/workspace', '/tmp']);
    await sh(
      'echo a > /tmp/a.sh && touch -d @0 /tmp/a.sh && mv /workspace/before.txt /workspace/moved.txt && ln /tmp/a.sh /workspace/linked && ln -s /tmp/a.sh /tmp/sym',
    );
    const changed = await tracker?.collect();
    expect(changed).toEqual(expect.arrayContaining(['/tmp/a.sh', '/workspace/moved.txt', '/workspace/linked', '/tmp/sym']));
    expect(changed).not.toContain('/workspace/before.txt');
  });
});
