// The E2B terminal PTY against the loopback E2B server, whose sandboxes are real Docker containers
// of the busybox test image. The test client answers the shell's cursor-position query as xterm
// does, or busybox line editing waits for it on every prompt.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { E2bBackend } from '@/lib/sandbox/e2b/backend';
import { describeDocker } from '@/test/helpers/docker';
import { type E2bServer, serverContainers, startE2bServer } from '@/test/helpers/e2b-server';
import { markedPids as marked } from '@/test/helpers/marked-processes';
import { openPtyFor } from './open-pty';
import type { PtyOpenRequest, TerminalPty } from './pty';

const DSR = '\x1b[6n';
const DEADLINE = { timeoutMs: 20_000, maxOutputBytes: 1 << 20 };

class Shell {
  out = '';
  private waiters: { re: RegExp; resolve: () => void }[] = [];
  readonly exited: Promise<number | null>;
  constructor(readonly pty: TerminalPty) {
    pty.onData((b) => {
      const s = b.toString('latin1');
      this.out += s;
      for (let i = s.indexOf(DSR); i >= 0; i = s.indexOf(DSR, i + 1)) void pty.write(Buffer.from('\x1b[1;1R'));
      const met = this.waiters.filter((w) => w.re.test(this.out));
      this.waiters = this.waiters.filter((w) => !met.includes(w));
      for (const w of met) w.resolve();
    });
    this.exited = new Promise((resolve) => pty.onExit(resolve));
  }
  type(s: string): Promise<void> {
    return this.pty.write(Buffer.from(s));
  }
  waitFor(re: RegExp): Promise<void> {
    if (re.test(this.out)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ re, resolve }));
  }
}

describeDocker('E2B terminal PTY', () => {
  const docker = new Docker();
  let server: E2bServer;
  let backend: E2bBackend;
  let id = '';

  const request = (over: Partial<PtyOpenRequest> = {}): PtyOpenRequest => ({
    sessionId: `t${randomBytes(8).toString('hex')}`,
    userId: 'u-e2b',
    sandboxId: id,
    cols: 80,
    rows: 24,
    env: {},
    ...over,
  });
  const exec = (argv: string[]) => backend.exec(id, { argv, ...DEADLINE });
  const markedPids = (sessionId: string) => marked(async (argv) => (await exec(argv)).stdout, sessionId);

  beforeAll(async () => {
    server = await startE2bServer({ docker });
    backend = new E2bBackend(
      'e2b',
      { apiUrl: server.apiUrl, apiKey: server.apiKey, domain: server.baseDomain, proxyUrl: server.proxyUrl, template: 'skilldock-test' },
      { lookup: server.lookup },
    );
    id = (await backend.create({ image: 'skilldock-test', idleTtlSeconds: 600 })).id;
  });

  afterAll(async () => {
    if (id) await backend.remove(id);
    await backend?.close();
    await server?.close();
    expect(await serverContainers(docker, server)).toEqual([]);
  });

  it('echoes input, carries the env, resizes, and reports the exit code', async () => {
    const req = request({ env: { GREETING: 'hi-from-env' } });
    const sh = new Shell(await openPtyFor(backend, req));
    await sh.type('echo hello\r');
    await sh.waitFor(/\nhello\r?\n/);
    await sh.type('echo "env=$GREETING/$TERM/$LANG/$SKILLDOCK_TERMINAL_ID"\r');
    await sh.waitFor(new RegExp(`env=hi-from-env/xterm-256color/C\\.UTF-8/${req.sessionId}`));
    await sh.type('echo "size=$(stty size)"\r');
    await sh.waitFor(/size=24 80/);
    await sh.pty.resize(120, 40);
    await sh.type('echo "size=$(stty size)"\r');
    await sh.waitFor(/size=40 120/);
    await sh.type('exit 3\r');
    expect(await sh.exited).toBe(3);
    // After the shell's own exit, kill only sweeps (nothing is left) and resolves.
    await sh.pty.kill();
    expect(await markedPids(req.sessionId)).toEqual([]);
  });

  it('kill ends the shell and every process it started, marked or in its session', async () => {
    const req = request();
    const sh = new Shell(await openPtyFor(backend, req));
    // A job-control background job (its own process group), one in a new session, one without the env marker.
    await sh.type('sleep 1000 & setsid sleep 1001 & env -i sleep 1002 & echo started-$((1+1))\r');
    await sh.waitFor(/started-2/);
    const before = (await exec(['ps', '-o', 'args'])).stdout;
    for (const n of ['1000', '1001', '1002']) expect(before).toContain(`sleep ${n}`);
    expect(await markedPids(req.sessionId)).not.toEqual([]);

    await sh.pty.kill();
    const code = await sh.exited;
    expect(code === null || code === 137).toBe(true);
    const after = (await exec(['ps', '-o', 'args'])).stdout;
    for (const n of ['1000', '1001', '1002']) expect(after).not.toContain(`sleep ${n}`);
    expect(after).toContain('sleep 86400');
    expect(await markedPids(req.sessionId)).toEqual([]);
    // Input after the end is dropped, not an error.
    await expect(sh.type('echo late\r')).resolves.toBeUndefined();
  });

  it('starts bash as a login shell when the template has one, else sh', async () => {
    // The test template's /bin/bash is a wrapper around busybox sh; this one also says it ran, with which arguments.
    const wrapper = '#!/bin/sh\nexport VIA="bash:$*"\nexec /bin/sh "$@"\n';
    await backend.writeFile(id, '/bin/bash', Buffer.from(wrapper), 0o755);
    const withBash = new Shell(await openPtyFor(backend, request()));
    await withBash.type('echo "via=${VIA:-sh}."\r');
    await withBash.waitFor(/via=bash:-l\./);
    await withBash.pty.kill();

    expect((await exec(['rm', '/bin/bash'])).exitCode).toBe(0);
    const withoutBash = new Shell(await openPtyFor(backend, request()));
    await withoutBash.type('echo "via=${VIA:-sh}."\r');
    await withoutBash.waitFor(/via=sh\./);
    await withoutBash.pty.kill();
  });
});
