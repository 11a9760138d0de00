// The proxy with the real policy judges and the host guard, on loopback. Names resolve to
// documentation addresses (203.0.113.0/24, 2001:db8::/32) that the dial seam maps onto the test's
// own loopback server, so nothing is ever sent anywhere else; a refused address is never dialled.
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HostGuard } from '../docker/host-guard';
import { policyJudges } from '../docker/judges';
import { compilePolicy } from '../policy/compile';
import type { CompiledPolicy, NetworkPolicy } from '../policy/types';
import { OPEN_POLICY } from '../policy/types';
import { validatePolicy } from '../policy/validate';
import { type EgressDecisionEvent, EgressProxy } from './egress-proxy';
import { connectVia, requestVia } from './testutil';

const PUBLIC = '203.0.113.10';
const HOST_ADDR = '203.0.113.20';
const NAMES: Record<string, string[]> = {
  'public.test': [PUBLIC],
  'meta.test': ['169.254.169.254'],
  'mixed-private.test': [PUBLIC, '10.1.2.3'],
  'mixed-meta.test': [PUBLIC, '::ffff:169.254.169.254'],
  'host.test': [HOST_ADDR],
  'gateway.test': ['198.51.100.1'],
  'docker-net.test': [PUBLIC, '198.18.5.9'],
};

const compiled = (p: Partial<NetworkPolicy>): CompiledPolicy => {
  const r = validatePolicy('docker', { ...OPEN_POLICY, ...p });
  if (!r.policy) throw new Error(JSON.stringify(r.issues));
  return compilePolicy(r.policy);
};

let server: http.Server;
let serverPort: number;
let proxy: EgressProxy;
let proxyPort: number;
let policy: CompiledPolicy;
const dials: string[] = [];
const decisions: EgressDecisionEvent[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => res.end(`hello ${req.headers.host}`));
  serverPort = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as net.AddressInfo).port)));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function start(p: Partial<NetworkPolicy>) {
  policy = compiled(p);
  dials.length = 0;
  decisions.length = 0;
  // The host's own addresses, a bridge gateway, and another Docker network's subnet, as the enforcer would list them.
  const guard = new HostGuard({ hostAddresses: async () => [HOST_ADDR, '198.51.100.1', '127.0.0.1'], networkSubnets: async () => ['198.18.0.0/16'] });
  const judges = policyJudges(() => policy);
  proxy = new EgressProxy({
    judge: judges.egress,
    resolve: async (host) => NAMES[host] ?? [],
    guard: (addresses) => guard.check(addresses),
    dial: (ip, port) => {
      dials.push(`${ip}:${port}`);
      if (ip !== PUBLIC) throw new Error(`the test never dials ${ip}`);
      return net.connect({ host: '127.0.0.1', port: serverPort, allowHalfOpen: true });
    },
    onDecision: (e) => decisions.push(e),
  });
  proxyPort = await proxy.listen('127.0.0.1', 0);
}

afterEach(() => proxy?.close());

describe('EgressProxy with the policy judges and the host guard', () => {
  it('under the open policy: an allowed public name is dialled at the checked address itself', async () => {
    await start({});
    const c = await connectVia(proxyPort, 'public.test:8443');
    expect(c.status).toBe(200);
    c.socket.destroy();
    expect(dials).toEqual([`${PUBLIC}:8443`]);
  });

  // [what, CONNECT target or Host, expected kind]
  const refused: [string, string, string][] = [
    ['CONNECT to the metadata address literal', '169.254.169.254:80', 'always-blocked'],
    ['CONNECT to an IPv4-mapped metadata literal', '[::ffff:169.254.169.254]:80', 'always-blocked'],
    ['CONNECT to a private literal', '10.0.0.5:22', 'private'],
    ['CONNECT to loopback', '127.0.0.1:5432', 'always-blocked'],
    ['CONNECT to a name resolving to metadata', 'meta.test:443', 'always-blocked'],
    ['CONNECT to a name with one private address among public ones', 'mixed-private.test:443', 'private'],
    ['CONNECT to a name with one mapped metadata address', 'mixed-meta.test:443', 'always-blocked'],
    ["CONNECT to the host's own address", `${HOST_ADDR}:22`, 'host'],
    ["CONNECT to a name resolving to the host's address", 'host.test:443', 'host'],
    ['CONNECT to a bridge gateway', 'gateway.test:2375', 'host'],
    ["CONNECT to another Docker network's subnet", '198.18.0.7:80', 'other-network'],
    ['CONNECT to a name with one address in another Docker network', 'docker-net.test:443', 'other-network'],
  ];
  it.each(refused)('under the open policy refuses %s, dialling nothing', async (_what, target, kind) => {
    await start({});
    const c = await connectVia(proxyPort, target);
    expect(c.status).toBe(403);
    expect(c.headers['x-proxy-error']).toBe('blocked-by-policy');
    expect(dials).toEqual([]);
    const body = c.body?.toString() ?? '';
    expect(body.length).toBeGreaterThan(0);
    const d = decisions.at(-1)?.decision;
    // The judge's denials are reported; the guard's refusals are answered with their own rule.
    if (kind === 'host' || kind === 'other-network') expect(body).toMatch(kind === 'host' ? /address of the host itself/ : /Docker network on this host/);
    else expect(d).toMatchObject({ allowed: false, kind });
  });

  it('judges plain HTTP by its Host the same way', async () => {
    await start({});
    for (const host of ['meta.test', 'host.test', 'docker-net.test', '169.254.169.254', `${HOST_ADDR}:8080`]) {
      const got = await requestVia(proxyPort, host);
      expect(got.status, host).toBe(403);
    }
    expect(dials).toEqual([]);
    expect((await requestVia(proxyPort, 'public.test:8080')).status).toBe(200);
    expect(dials).toEqual([`${PUBLIC}:8080`]);
  });

  it('an allowOut entry cannot open the host or another network through the proxy', async () => {
    await start({ allowOut: ['198.18.0.0/16', `${HOST_ADDR}/32`, '198.51.100.0/24'] });
    for (const target of ['198.18.0.7:80', `${HOST_ADDR}:22`, 'gateway.test:443']) {
      expect((await connectVia(proxyPort, target)).status, target).toBe(403);
    }
    expect(dials).toEqual([]);
  });
});
