// Open tunnels under a policy change, the per-address connection cap and the idle timeout, on
// loopback with small limits injected. Names resolve to documentation addresses that the dial seam
// maps onto the test's own loopback server; nothing else is dialled.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { policyJudges } from '../docker/judges';
import { compilePolicy } from '../policy/compile';
import type { CompiledPolicy, NetworkPolicy } from '../policy/types';
import { OPEN_POLICY } from '../policy/types';
import { validatePolicy } from '../policy/validate';
import { REFUSAL_LINGER_MS } from './answers';
import { EgressProxy, type EgressProxyOptions, MAX_CONNECTIONS_PER_CLIENT, TUNNEL_IDLE_MS } from './egress-proxy';
import { connectVia } from './testutil';

const NAMES: Record<string, string[]> = { 'a.test': ['203.0.113.1'], 'b.test': ['203.0.113.2'] };

const compiled = (p: Partial<NetworkPolicy>): CompiledPolicy => {
  const r = validatePolicy('docker', { ...OPEN_POLICY, ...p });
  if (!r.policy) throw new Error(JSON.stringify(r.issues));
  return compilePolicy(r.policy);
};

let echo: net.Server;
let echoPort: number;
let proxy: EgressProxy;
let port: number;
let policy: CompiledPolicy;

beforeAll(async () => {
  // An echo server: a tunnel is open while bytes go through it both ways.
  echo = net.createServer((s) => {
    s.on('error', () => {});
    s.pipe(s);
  });
  echoPort = await new Promise<number>((r) => echo.listen(0, '127.0.0.1', () => r((echo.address() as net.AddressInfo).port)));
});
afterAll(() => new Promise((r) => echo.close(r)));
afterEach(() => proxy?.close());

async function start(p: Partial<NetworkPolicy>, opts: Partial<EgressProxyOptions> = {}) {
  policy = compiled(p);
  proxy = new EgressProxy({
    judge: policyJudges(() => policy).egress,
    resolve: async (host) => NAMES[host] ?? [],
    dial: (ip) => {
      if (!ip.startsWith('203.0.113.')) throw new Error(`the test never dials ${ip}`);
      return net.connect({ host: '127.0.0.1', port: echoPort, allowHalfOpen: true });
    },
    ...opts,
  });
  port = await proxy.listen('127.0.0.1', 0);
}

const closed = (s: net.Socket) => new Promise<void>((r) => (s.destroyed ? r() : s.once('close', () => r())));
const roundTrip = async (s: net.Socket, text: string) => {
  const got = new Promise<string>((r) => s.once('data', (d: Buffer) => r(d.toString())));
  s.write(text);
  return got;
};

describe('EgressProxy: tightening a policy ends the tunnels it no longer allows', () => {
  it('ends a denied tunnel, keeps an allowed one, and reports what it ended', async () => {
    const ended: string[] = [];
    await start({ denyEgressByDefault: true, allowOut: ['a.test', 'b.test', '203.0.113.0/24'] }, { onTunnelEnded: (e) => ended.push(`${e.host}:${e.port}`) });
    const a = await connectVia(port, 'a.test:443');
    const b = await connectVia(port, 'b.test:443');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await roundTrip(a.socket, 'ping-a')).toBe('ping-a');
    expect(
      proxy
        .openTunnels()
        .map((t) => t.host)
        .sort(),
    ).toEqual(['a.test', 'b.test']);
    // b.test leaves the allow list: its tunnel ends; a.test's stays.
    policy = compiled({ denyEgressByDefault: true, allowOut: ['a.test', '203.0.113.1/32'] });
    expect(await proxy.recheck()).toBe(1);
    await closed(b.socket);
    expect(ended).toEqual(['b.test:443']);
    expect(await roundTrip(a.socket, 'still-a')).toBe('still-a');
    expect(proxy.stats()).toMatchObject({ tunnels: 1, ended: 1 });
    a.socket.destroy();
  });

  it('a new judge swapped in ends every tunnel it denies, a CONNECT to a literal address included', async () => {
    await start({});
    const t = await connectVia(port, '203.0.113.2:8080');
    expect(t.status).toBe(200);
    expect(await proxy.setJudge(policyJudges(() => compiled({ denyOut: ['203.0.113.0/24'] })).egress)).toBe(1);
    await closed(t.socket);
    expect(proxy.stats().tunnels).toBe(0);
  });
  it('judges again a connection whose guard check overlapped a policy change', async () => {
    await start(
      { denyEgressByDefault: true, allowOut: ['a.test'] },
      {
        // The policy changes (and the open tunnels are swept) while the guard is answering.
        guard: async () => {
          policy = compiled({ denyEgressByDefault: true, allowOut: ['b.test'] });
          await proxy.recheck();
          return null;
        },
      },
    );
    const c = await connectVia(port, 'a.test:443');
    expect(c.status).toBe(403);
    expect(proxy.stats()).toMatchObject({ accepted: 0, tunnels: 0 });
  });
});

describe('EgressProxy: per-address cap and idle timeout', () => {
  it('refuses the connection past the cap with 429, reports it, and takes one again after a close', async () => {
    const limits: { client: string; limit: number }[] = [];
    await start({}, { maxPerClient: 2, onLimit: (e) => limits.push({ client: e.client, limit: e.limit }) });
    const one = await connectVia(port, 'a.test:443');
    const two = await connectVia(port, 'b.test:443');
    const three = await connectVia(port, 'a.test:443');
    expect([one.status, two.status, three.status]).toEqual([200, 200, 429]);
    expect(three.headers['x-proxy-error']).toBe('too-many-connections');
    expect(limits).toEqual([{ client: '127.0.0.1', limit: 2 }]);
    expect(proxy.stats()).toMatchObject({ limited: 1, tunnels: 2 });
    // Another source address has its own share.
    const other = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
    const head = await new Promise<string>((r) => {
      other.once('data', (d: Buffer) => r(d.toString()));
      other.write('CONNECT a.test:443 HTTP/1.1\r\nHost: a.test:443\r\n\r\n');
    });
    expect(head.startsWith('HTTP/1.1 200')).toBe(true);
    other.destroy();
    one.socket.destroy();
    await closed(one.socket);
    for (let i = 0; i < 100 && proxy.stats().open > 1; i++) await new Promise((r) => setTimeout(r, 5));
    const again = await connectVia(port, 'a.test:443');
    expect(again.status).toBe(200);
    again.socket.destroy();
    two.socket.destroy();
  });

  it('closes a tunnel with no byte either way for the idle time, and keeps a busy one', async () => {
    await start({}, { idleTimeoutMs: 150 });
    const quiet = await connectVia(port, 'a.test:443');
    const busy = await connectVia(port, 'b.test:443');
    const t0 = Date.now();
    const timer = setInterval(() => busy.socket.write('x'), 40);
    busy.socket.on('data', () => {});
    try {
      await closed(quiet.socket);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      await new Promise((r) => setTimeout(r, 300));
      expect(busy.socket.destroyed).toBe(false);
      expect(proxy.stats().tunnels).toBe(1);
    } finally {
      clearInterval(timer);
      busy.socket.destroy();
    }
  });

  it('destroys a refused socket whose client never closes its side', async () => {
    await start({});
    const s = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    const answered = new Promise<string>((r) => s.once('data', (d: Buffer) => r(d.toString())));
    s.write('CONNECT 169.254.169.254:80 HTTP/1.1\r\nHost: 169.254.169.254:80\r\n\r\n');
    expect((await answered).startsWith('HTTP/1.1 403')).toBe(true);
    const t0 = Date.now();
    expect(proxy.stats().open).toBe(1);
    for (let i = 0; i < 400 && proxy.stats().open > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(proxy.stats().open).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(REFUSAL_LINGER_MS - 200);
    s.destroy();
  });

  it('has a 10-minute idle time and a cap of 256 by default', () => {
    expect(TUNNEL_IDLE_MS).toBe(600_000);
    expect(MAX_CONNECTIONS_PER_CLIENT).toBe(256);
  });
});
