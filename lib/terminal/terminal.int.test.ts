// Terminal sessions on a real engine with the offline busybox image. The test client answers the
// shell's cursor-position query as xterm does, or line editing waits for it on every prompt.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { DockerBackend } from '@/lib/sandbox/docker/backend';
import { describeDocker } from '@/test/helpers/docker';
import { markedPids as marked } from '@/test/helpers/marked-processes';
import { ensureBusyboxImage } from '@/test/helpers/sandbox-images';
import { openDockerPty } from './docker-pty';
import type { ServerFrame } from './frames';
import { type TerminalAuditEvent, TerminalManager } from './manager';
import type { TerminalSession } from './session';

const RUN = randomBytes(6).toString('hex');
const DEADLINE = { timeoutMs: 20_000, maxOutputBytes: 1 << 20 };
const DSR = '\x1b[6n';

class Client {
  out = '';
  frames: ServerFrame[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: { re: RegExp; resolve: () => void }[] = [];
  constructor(private readonly session: TerminalSession) {}
  readonly consumer = {
    send: (b: Buffer) => {
      const s = b.toString('latin1');
      this.out += s;
      for (let i = s.indexOf(DSR); i >= 0; i = s.indexOf(DSR, i + 1)) this.session.input(Buffer.from('\x1b[1;1R'));
      this.check();
    },
    control: (f: ServerFrame) => void this.frames.push(f),
    close: (code: number, reason: string) => {
      this.closed = { code, reason };
    },
  };
  type(s: string) {
    this.session.input(Buffer.from(s));
  }
  /** The offset just past the last byte this client received. */
  get offset(): number {
    const ready = this.frames.find((f) => f.type === 'ready');
    if (ready?.type !== 'ready') throw new Error('not ready');
    return ready.replayFrom + Buffer.byteLength(this.out, 'latin1');
  }
  waitFor(re: RegExp): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ re, resolve });
      this.check();
    });
  }
  private check() {
    const met = this.waiters.filter((w) => w.re.test(this.out));
    this.waiters = this.waiters.filter((w) => !met.includes(w));
    for (const w of met) w.resolve();
  }
}

const count = (s: string, needle: string) => s.split(needle).length - 1;

describeDocker('terminal sessions', () => {
  const docker = new Docker();
  const backend = new DockerBackend({ host: process.env.DOCKER_HOST });
  const audit: TerminalAuditEvent[] = [];
  const endWaiters = new Map<string, () => void>();
  let id = '';
  let manager: TerminalManager;

  const ended = (sessionId: string) => new Promise<void>((r) => endWaiters.set(sessionId, r));
  const exec = (argv: string[]) => backend.exec(id, { argv, ...DEADLINE });
  const markedPids = (sessionId: string) => marked(async (argv) => (await exec(argv)).stdout, sessionId);

  beforeAll(async () => {
    const image = await ensureBusyboxImage(docker);
    id = (await backend.create({ image, labels: { 'io.skilldock.test-run': RUN }, limits: { memoryMb: 96, pids: 64, cpu: 0.5 } })).id;
    manager = new TerminalManager({
      openPty: (req) => openDockerPty(backend, req),
      maxPerUser: 2,
      maxPerSandbox: 3,
      graceMs: 60_000,
      audit: (e) => {
        audit.push(e);
        if (e.phase === 'end') endWaiters.get(e.sessionId)?.();
      },
    });
  });

  afterAll(async () => {
    await manager?.closeAll();
    for (const c of await docker.listContainers({ all: true, filters: { label: [`io.skilldock.test-run=${RUN}`] } }))
      await docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => {});
    await docker.pruneVolumes({ filters: { label: [`io.skilldock.test-run=${RUN}`] } }).catch(() => {});
  });

  it('echoes typed input, resizes in order with input, and audits start and end with byte counts', async () => {
    const s = await manager.open({ userId: 'u-echo', sandboxId: id, cols: 80, rows: 24, env: { GREETING: 'hi-from-env' } });
    const c = new Client(s);
    s.attach(c.consumer);
    expect(c.frames[0]).toEqual({ type: 'ready', sessionId: s.id, replayFrom: 0 });
    c.type('echo hello\n');
    await c.waitFor(/\nhello\r?\n/);
    c.type('echo $GREETING $TERM\n');
    await c.waitFor(/hi-from-env xterm-256color/);
    c.type('stty size\n');
    s.resize(10, 300); // overwritten by the next resize before it is sent, or sent first: never after the typed line below
    s.resize(120, 40);
    c.type('echo size=$(stty size)\n');
    await c.waitFor(/size=40 120/);
    expect(await backend.activity.isLeased(id)).toBe(true);
    const done = ended(s.id);
    await manager.close(s.id);
    await done;
    expect(c.closed).toEqual({ code: 4008, reason: 'closed_by_admin' });
    // The backend records the activity before it lets the lease go.
    await vi.waitFor(async () => expect(await backend.activity.isLeased(id)).toBe(false), { timeout: 20_000, interval: 50 });
    const start = audit.find((e) => e.sessionId === s.id && e.phase === 'start');
    const end = audit.find((e) => e.sessionId === s.id && e.phase === 'end');
    expect(start).toMatchObject({ who: 'u-echo', sandbox: id, end: null, reason: null });
    expect(end).toMatchObject({ who: 'u-echo', sandbox: id, reason: 'closed', bytesIn: s.bytesIn });
    expect(end?.bytesOut).toBeGreaterThan(0);
    expect(end?.bytesIn).toBeGreaterThan('echo hello\n'.length);
    expect(end?.end?.getTime()).toBeGreaterThanOrEqual(end?.start.getTime() ?? Number.NaN);
  });

  it('re-attaches after a dropped socket and replays the missed output exactly once', async () => {
    const s = await manager.open({ userId: 'u-re', sandboxId: id, cols: 80, rows: 24 });
    const a = new Client(s);
    s.attach(a.consumer);
    a.type('echo before-$((2*3))\n');
    await a.waitFor(/before-6/);
    a.type(`sleep 1; echo missed-$((6*7)); touch /tmp/${s.id}\n`);
    s.detach(a.consumer);
    while ((await exec(['test', '-f', `/tmp/${s.id}`])).exitCode !== 0) await new Promise((r) => setTimeout(r, 100));

    expect(isAppError(manager.find(s.id, 'someone-else'))).toBe(true);
    const found = manager.find(s.id, 'u-re');
    expect(found).toBe(s);
    const b = new Client(s);
    s.attach(b.consumer, { lastOffset: a.offset, cols: 80, rows: 24 });
    expect(b.frames[0]).toEqual({ type: 'ready', sessionId: s.id, replayFrom: a.offset });
    await b.waitFor(/missed-42/);
    expect(count(a.out, 'missed-42')).toBe(0);
    expect(count(b.out, 'missed-42')).toBe(1);
    expect(count(b.out, 'before-6')).toBe(0);

    // A page refresh that lost its offset gets everything kept, once; the previous socket is told why it lost the session.
    const c = new Client(s);
    s.attach(c.consumer);
    expect(b.closed).toEqual({ code: 4007, reason: 'attached_elsewhere' });
    expect(c.frames[0]).toEqual({ type: 'ready', sessionId: s.id, replayFrom: 0 });
    expect(count(c.out, 'before-6')).toBe(1);
    expect(count(c.out, 'missed-42')).toBe(1);
    expect(c.out).toBe(a.out + b.out);
    await manager.close(s.id);
  });

  it('ends a detached session after the grace period and leaves no process of it in the container', async () => {
    const short = new TerminalManager({ openPty: (req) => openDockerPty(backend, req), graceMs: 300, audit: (e) => void audit.push(e) });
    const s = await short.open({ userId: 'u-grace', sandboxId: id, cols: 80, rows: 24 });
    const c = new Client(s);
    s.attach(c.consumer);
    // A job-control background job (its own process group), one in a new session, one without the env marker.
    c.type('sleep 4242 & setsid sleep 4343 & env -i sleep 4444 & echo started-$((1+1))\n');
    await c.waitFor(/started-2/);
    const before = (await exec(['ps', '-o', 'args'])).stdout;
    for (const n of ['4242', '4343', '4444']) expect(before).toContain(`sleep ${n}`);
    expect(await markedPids(s.id)).not.toEqual([]);

    const gone = new Promise<void>((r) => {
      const t = setInterval(() => {
        if (s.endedAt !== null) {
          clearInterval(t);
          r();
        }
      }, 50);
    });
    s.detach(c.consumer);
    await gone;
    expect(s.endReason).toBe('grace_expired');
    expect(short.list()).toEqual([]);
    const after = (await exec(['ps', '-o', 'args'])).stdout;
    for (const n of ['4242', '4343', '4444']) expect(after).not.toContain(`sleep ${n}`);
    expect(await markedPids(s.id)).toEqual([]);
    expect(after).toContain('sleep infinity');
  });

  it('ends the session when the shell exits, with its code', async () => {
    const s = await manager.open({ userId: 'u-exit', sandboxId: id, cols: 80, rows: 24 });
    const c = new Client(s);
    const done = ended(s.id);
    s.attach(c.consumer);
    c.type('exit 7\n');
    await done;
    expect(c.frames).toContainEqual({ type: 'exited', code: 7 });
    expect(c.closed).toEqual({ code: 4006, reason: 'shell_exited' });
    expect(audit.find((e) => e.sessionId === s.id && e.phase === 'end')?.reason).toBe('exited');
  });

  it('refuses terminals over the per-user and per-sandbox limits, and lists open ones', async () => {
    const a1 = await manager.open({ userId: 'u-a', sandboxId: id, cols: 80, rows: 24 });
    const a2 = await manager.open({ userId: 'u-a', sandboxId: id, cols: 80, rows: 24 });
    const refusedUser = await manager.open({ userId: 'u-a', sandboxId: id, cols: 80, rows: 24 }).catch((e: unknown) => e);
    expect(isAppError(refusedUser) && refusedUser.code === 'rate_limited' && refusedUser.details?.limit).toBe('per_user');
    const b1 = await manager.open({ userId: 'u-b', sandboxId: id, cols: 80, rows: 24 });
    const refusedSandbox = await manager.open({ userId: 'u-c', sandboxId: id, cols: 80, rows: 24 }).catch((e: unknown) => e);
    expect(isAppError(refusedSandbox) && refusedSandbox.code === 'rate_limited' && refusedSandbox.details?.limit).toBe('per_sandbox');
    expect(
      manager
        .list()
        .map((x) => x.userId)
        .sort(),
    ).toEqual(['u-a', 'u-a', 'u-b']);
    expect(await manager.closeForUser('u-a')).toBe(2);
    expect(manager.list().map((x) => x.id)).toEqual([b1.id]);
    expect([a1.endReason, a2.endReason]).toEqual(['revoked', 'revoked']);
    expect(await manager.closeForSandbox(id)).toBe(1);
    expect(b1.endReason).toBe('sandbox_gone');
    const again = await manager.open({ userId: 'u-c', sandboxId: id, cols: 80, rows: 24 });
    expect(await manager.close(again.id)).toBe(true);
    expect(await manager.close(again.id)).toBe(false);
  });
});
