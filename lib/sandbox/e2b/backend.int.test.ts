// test-phase: pglite only. No database in it: a second phase would repeat the same engine work.
// The E2B-protocol backend against the loopback E2B server, whose sandboxes are real Docker
// containers: E2B and Cube configs, each by Host routing (https, a test CA) and by a proxy URL.
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPEN_POLICY } from '@/lib/network/policy/types';
import { describeDocker } from '@/test/helpers/docker';
import { type E2bServer, serverContainers, startE2bServer } from '@/test/helpers/e2b-server';
import { E2bBackend } from './backend';
import type { E2bConfig, E2bKind } from './config';

async function readAll(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describeDocker('E2B-protocol backend against the loopback E2B server', () => {
  const docker = new Docker();
  const servers = {} as Record<E2bKind, E2bServer>;
  const backends: E2bBackend[] = [];

  beforeAll(async () => {
    servers.e2b = await startE2bServer({ docker, flavor: 'e2b', pageSize: 1 });
    servers.cube = await startE2bServer({ docker, flavor: 'cube', apiKey: 'dummy', pageSize: 1 });
  });

  afterAll(async () => {
    await Promise.all(backends.map((b) => b.close()));
    await Promise.all(Object.values(servers).map((s) => s.close()));
    const left = await serverContainers(docker, ...Object.values(servers));
    expect(left).toEqual([]);
  });

  function backend(kind: E2bKind, routing: 'host' | 'proxy', over: Partial<E2bConfig> = {}): E2bBackend {
    const s = servers[kind];
    const cfg: E2bConfig =
      routing === 'host'
        ? { apiUrl: s.apiUrlTls, apiKey: s.apiKey, domain: s.domain, template: 'skilldock-test', caCert: s.caCert, ...over }
        : { apiUrl: s.apiUrl, apiKey: s.apiKey, domain: s.baseDomain, proxyUrl: s.proxyUrl, template: 'skilldock-test', ...over };
    const b = new E2bBackend(kind, cfg, { lookup: s.lookup });
    backends.push(b);
    return b;
  }

  for (const kind of ['e2b', 'cube'] as const) {
    for (const routing of ['host', 'proxy'] as const) {
      it(`${kind} by ${routing} routing: create, exec, files, list by metadata, remove`, async () => {
        const b = backend(kind, routing);
        const suite = randomBytes(4).toString('hex');
        const seenBefore = servers[kind].seen.length;
        expect((await b.ping()).latencyMs).toBeGreaterThanOrEqual(0);
        const sb = await b.create({ image: 'skilldock-test', labels: { suite, role: 'a' }, env: { FROM_CREATE: 'c1' }, idleTtlSeconds: 120 });
        const other = await b.create({ image: 'skilldock-test', labels: { suite, role: 'b' } });

        const r = await b.exec(sb.id, { argv: ['sh', '-c', 'echo out; echo err >&2; exit 3'], timeoutMs: 20_000, maxOutputBytes: 1 << 20 });
        expect(r).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', truncated: false, timedOut: false });
        // An argument vector: no shell sees these words.
        const argv = await b.exec(sb.id, { argv: ['echo', 'a  b', '$HOME', ';', 'id'], timeoutMs: 20_000, maxOutputBytes: 4096 });
        expect(argv.stdout).toBe('a  b $HOME ; id\n');
        const env = await b.exec(sb.id, {
          argv: ['sh', '-c', 'echo "$FOO/$FROM_CREATE"; pwd; id -un'],
          env: { FOO: 'bar' },
          cwd: '/tmp',
          timeoutMs: 20_000,
          maxOutputBytes: 4096,
        });
        expect(env.stdout).toBe('bar/c1\n/tmp\nroot\n');
        const asUser = await b.exec(sb.id, { argv: ['id', '-u'], user: 'user', timeoutMs: 20_000, maxOutputBytes: 4096 });
        expect(asUser.stdout).toBe('1000\n');
        const stdin = await b.exec(sb.id, { argv: ['cat'], stdin: 'from stdin', timeoutMs: 20_000, maxOutputBytes: 4096 });
        expect(stdin).toMatchObject({ exitCode: 0, stdout: 'from stdin' });
        const capped = await b.exec(sb.id, { argv: ['sh', '-c', 'yes | head -c 100000'], timeoutMs: 20_000, maxOutputBytes: 1000 });
        expect(capped).toMatchObject({ exitCode: 0, truncated: true });
        expect(capped.stdout).toHaveLength(1000);
        const slow = await b.exec(sb.id, { argv: ['sleep', '300'], timeoutMs: 1000, maxOutputBytes: 4096 });
        expect(slow).toMatchObject({ timedOut: true, exitCode: 137 });
        const ps = await b.exec(sb.id, { argv: ['ps', '-o', 'args'], timeoutMs: 20_000, maxOutputBytes: 1 << 16 });
        expect(ps.stdout).not.toContain('sleep 300');

        const data = randomBytes(300_000);
        await b.writeFile(sb.id, '/tmp/round/trip.bin', data);
        expect(sha(await readAll(await b.readFile(sb.id, '/tmp/round/trip.bin', 1 << 20)))).toBe(sha(data));
        await expect(b.readFile(sb.id, '/tmp/round/trip.bin', 1000).then(readAll)).rejects.toMatchObject({ code: 'sandbox_file_too_large' });
        await expect(b.readFile(sb.id, '/tmp/round/missing', 1000)).rejects.toMatchObject({ code: 'not_found' });
        await b.writeFile(sb.id, '/tmp/round/run.sh', Buffer.from('#!/bin/sh\necho ran\n'), 0o755);
        expect((await b.exec(sb.id, { argv: ['/tmp/round/run.sh'], timeoutMs: 20_000, maxOutputBytes: 4096 })).stdout).toBe('ran\n');
        const entries = await b.listFiles(sb.id, '/tmp/round');
        expect(entries.map((e) => [e.name, e.type, e.type === 'file' && e.name === 'trip.bin' ? e.size : 0]).sort()).toEqual([
          ['run.sh', 'file', 0],
          ['trip.bin', 'file', 300_000],
        ]);

        // Paging is one sandbox per page on these servers: the list follows X-Next-Token.
        expect((await b.list({ suite })).map((s) => s.id).sort()).toEqual([sb.id, other.id].sort());
        expect((await b.list({ suite, role: 'a' })).map((s) => s.id)).toEqual([sb.id]);
        expect((await b.get(sb.id))?.labels).toMatchObject({ suite, role: 'a', 'skilldock.managed': 'true' });

        expect(await b.setTimeout(sb.id, 600)).toBe('ok');
        expect(await b.refresh(sb.id, 60)).toBe('ok');
        const endAt = servers[kind].sandboxes.get(sb.id)?.endAt.getTime() ?? 0;
        expect(endAt).toBeGreaterThan(Date.now() + 600_000);
        expect(await b.control.connect(sb.id, 300)).toMatchObject({ sandboxID: sb.id, envdAccessToken: expect.any(String) });
        const closed = { ...OPEN_POLICY, denyEgressByDefault: true };
        expect(await b.applyNetworkPolicy(sb.id, closed)).toBe(kind === 'e2b' ? 'updated' : 'unsupported');
        // Cube has no network route at all: the client treats its 404 on a live sandbox as unsupported.
        if (kind === 'cube')
          expect(await b.control.updateNetwork(sb.id, { allow_internet_access: false, allowOut: [], denyOut: ['0.0.0.0/0'] })).toBe('unsupported');
        expect(b.capabilities()).toMatchObject(kind === 'e2b' ? { networkUpdate: true, egressDomains: true } : { networkUpdate: false, egressDomains: false });

        await b.remove(sb.id);
        await b.remove(other.id);
        await b.remove(other.id);
        expect(await b.get(sb.id)).toBeNull();
        expect(await b.list({ suite })).toEqual([]);
        expect(await docker.listContainers({ all: true, filters: { label: [`skilldock.test.e2b-sandbox=${sb.id}`] } })).toEqual([]);

        const envdSeen = servers[kind].seen.slice(seenBefore).filter((q) => q.plane === 'envd');
        expect(envdSeen.length).toBeGreaterThan(0);
        for (const q of envdSeen) {
          expect(q.host).toMatch(new RegExp(`^49983-i[0-9a-f]+\\.${servers[kind].baseDomain.replace('.', '\\.')}`));
          expect(q.via).toBe(routing === 'host' ? 'https' : 'http');
        }
      });
    }
  }

  it('runs a PTY process through envd: input, resize, re-attach', async () => {
    const b = backend('e2b', 'proxy');
    const sb = await b.create({ image: 'skilldock-test' });
    try {
      const envd = await b.envd(sb.id);
      let out = '';
      let pid = 0;
      let exitCode: number | undefined;
      const started = new Promise<void>((resolve, reject) => {
        (async () => {
          for await (const ev of envd.start({ cmd: '/bin/sh', args: [], envs: { TERM: 'xterm', PS1: '$ ' }, pty: { cols: 80, rows: 24 } })) {
            if (ev.type === 'start') {
              pid = ev.pid;
              resolve();
            } else if (ev.type === 'data') out += ev.data.toString('utf8');
            else if (ev.type === 'end') exitCode = ev.exitCode;
          }
        })().catch(reject);
      });
      await started;
      const waitFor = async (re: RegExp, read: () => string) => {
        for (let i = 0; i < 200 && !re.test(read()); i++) await new Promise((r) => setTimeout(r, 50));
        return read();
      };
      await envd.sendInput(pid, Buffer.from('stty size\n'), true);
      expect(await waitFor(/24 80/, () => out)).toMatch(/24 80/);
      await envd.resize(pid, 100, 40);
      let again = '';
      const attached = (async () => {
        for await (const ev of envd.attach(pid)) if (ev.type === 'data') again += ev.data.toString('utf8');
      })();
      await envd.sendInput(pid, Buffer.from('stty size; exit 0\n'), true);
      await attached;
      expect(again).toMatch(/40 100/);
      await waitFor(/40 100/, () => out);
      for (let i = 0; i < 100 && exitCode === undefined; i++) await new Promise((r) => setTimeout(r, 50));
      expect(exitCode).toBe(0);
    } finally {
      await b.remove(sb.id);
    }
  });

  it('maps 401, 404 and capacity answers to typed errors', async () => {
    const s = servers.e2b;
    await expect(backend('e2b', 'proxy', { apiKey: 'e2b_0000' }).ping()).rejects.toMatchObject({ code: 'sandbox_credentials_rejected', status: 502 });
    const b = backend('e2b', 'proxy');
    await expect(b.create({ image: 'no-such-template' })).rejects.toMatchObject({ code: 'sandbox_template_missing', status: 404 });
    expect(await b.get('inotthere')).toBeNull();
    await expect(b.exec('inotthere', { argv: ['true'], timeoutMs: 5000, maxOutputBytes: 10 })).rejects.toMatchObject({ code: 'sandbox_not_found' });
    await b.remove('inotthere');
    await expect(b.get('../etc')).rejects.toMatchObject({ code: 'validation' });

    s.inject({ route: 'create', status: 429, body: { code: 429, message: 'You have reached the maximum number of concurrent E2B sandboxes (20).' } });
    await expect(b.create({ image: 'skilldock-test' })).rejects.toMatchObject({ code: 'sandbox_capacity', status: 503 });
    s.inject({ route: 'create', status: 503, body: { code: 503, message: 'no capacity', error_code: 'sandbox_capacity_unavailable' } });
    await expect(b.create({ image: 'skilldock-test' })).rejects.toMatchObject({ code: 'sandbox_capacity' });
    s.inject({ route: 'list', status: 500, body: { code: 500, message: 'boom' } });
    await expect(b.list()).rejects.toMatchObject({ code: 'sandbox_error', details: { status: 500, upstreamMessage: 'boom' } });

    const sb = await b.create({ image: 'skilldock-test' });
    try {
      s.inject({ route: 'envd', status: 401, body: { code: 'unauthenticated', message: 'invalid access token' } });
      await expect(b.exec(sb.id, { argv: ['true'], timeoutMs: 5000, maxOutputBytes: 10 })).rejects.toMatchObject({ code: 'sandbox_credentials_rejected' });
      // The access token is required: a client that lost it is refused by envd.
      const fresh = backend('e2b', 'proxy');
      expect((await fresh.exec(sb.id, { argv: ['echo', 'ok'], timeoutMs: 20_000, maxOutputBytes: 10 })).stdout).toBe('ok\n');
      const sbState = s.sandboxes.get(sb.id);
      if (sbState) sbState.accessToken = 'rotated';
      await expect(fresh.exec(sb.id, { argv: ['true'], timeoutMs: 5000, maxOutputBytes: 10 })).rejects.toMatchObject({ code: 'sandbox_credentials_rejected' });
    } finally {
      await b.remove(sb.id);
    }
  });

  it('names TLS problems, timeouts and unresolved hosts; skip-verify or the CA fixes TLS', async () => {
    await expect(backend('e2b', 'host', { caCert: undefined }).ping()).rejects.toMatchObject({ code: 'sandbox_tls_error' });
    await expect(backend('e2b', 'host', { caCert: undefined, skipTlsVerify: true }).ping()).resolves.toMatchObject({ latencyMs: expect.any(Number) });
    await expect(backend('e2b', 'host').ping()).resolves.toBeDefined();
    servers.e2b.inject({ route: 'list', status: 200, body: [], delayMs: 3000 });
    await expect(backend('e2b', 'proxy', { requestTimeoutMs: 300 }).ping()).rejects.toMatchObject({ code: 'sandbox_timeout', status: 504 });
    const unresolved = new E2bBackend(
      'e2b',
      { apiUrl: 'https://api.unknown.test:1', apiKey: 'k', domain: 'unknown.test', template: 't' },
      { lookup: servers.e2b.lookup },
    );
    backends.push(unresolved);
    await expect(unresolved.ping()).rejects.toMatchObject({ code: 'sandbox_unreachable' });
  });
});
