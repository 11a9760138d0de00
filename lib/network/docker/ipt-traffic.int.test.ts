// Real connections through the iptables + ipset rules: a "host" namespace routes between a client on
// a bridge and an "outside" namespace, all three throwaway. Needs root, iptables and ipset.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '@/lib/core/process';
import { which } from '@/lib/core/which';
import type { CompiledPolicy } from '@/lib/network/policy/types';
import { iptablesFirewall } from './firewall';
import type { ManagedNetwork } from './nft-rules';

const SBIN = `${process.env.PATH}:/usr/sbin:/sbin`;
const absent = ['ip', 'iptables', 'ip6tables', 'iptables-restore', 'ip6tables-restore', 'iptables-save', 'ip6tables-save', 'ipset'].filter(
  (t) => !which(t, SBIN),
);
const skipReason = process.getuid?.() !== 0 ? 'needs root' : absent.length ? `needs ${absent.join(', ')}` : '';
if (skipReason) console.warn(`ipt-traffic.int.test: skipping: ${skipReason}`);

const id = randomBytes(3).toString('hex');
const host = `skdh${id}`;
const client = `skdc${id}`;
const outside = `skdo${id}`;
const table = `skilldock_t${id}`;
const IP = which('ip', SBIN) ?? 'ip';

const policy: CompiledPolicy = {
  denyEgressByDefault: true,
  allow4: ['10.20.0.0/16', '169.254.0.0/16'],
  allow6: [],
  deny4: ['198.51.100.0/24'],
  deny6: [],
  domains: ['pypi.org'],
  wildcards: [],
};
const net: ManagedNetwork = { key: 'k1', bridge: 'sdkk1', gateway4: '172.31.0.1', subnet4: '172.31.0.0/24', policy, proxyPort: 3129, dnsPort: 5354 };

async function ip(...args: string[]) {
  const r = await runProcess(IP, args, { timeoutMs: 10_000 });
  expect(r.code, `ip ${args.join(' ')}: ${r.stderr}`).toBe(0);
}

// Prints "open" once connected, else the error code (ECONNREFUSED for a reset, EHOSTUNREACH for an ICMP error).
const PROBE = `const s=require('net').connect(+process.argv[2],process.argv[1]);s.setTimeout(8000,()=>{console.log('silent');process.exit()});s.on('connect',()=>{console.log('open');process.exit()});s.on('error',e=>{console.log(e.code);process.exit()})`;
async function probe(address: string, port: number): Promise<string> {
  const r = await runProcess(IP, ['netns', 'exec', client, process.execPath, '-e', PROBE, address, String(port)], { timeoutMs: 20_000 });
  return r.stdout.trim();
}

const SERVE = `const ps=process.argv.slice(1);let n=0;for(const p of ps)require('net').createServer(s=>s.end()).listen(+p,'0.0.0.0',()=>{if(++n===ps.length)console.log('ready')})`;
const servers: ChildProcess[] = [];
async function serve(ns: string, ports: number[]) {
  const child = spawn(IP, ['netns', 'exec', ns, process.execPath, '-e', SERVE, ...ports.map(String)], { stdio: ['ignore', 'pipe', 'inherit'] });
  servers.push(child);
  await once(child.stdout!, 'data');
}

describe.skipIf(!!skipReason)('connections through the iptables + ipset rules', () => {
  beforeAll(async () => {
    for (const ns of [host, client, outside]) await ip('netns', 'add', ns);
    await ip('-n', host, 'link', 'add', 'sdkk1', 'type', 'bridge');
    await ip('-n', host, 'addr', 'add', '172.31.0.1/24', 'dev', 'sdkk1');
    await ip('-n', host, 'link', 'set', 'sdkk1', 'up');
    await ip('-n', host, 'link', 'add', 'vc', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', client);
    await ip('-n', host, 'link', 'set', 'vc', 'master', 'sdkk1', 'up');
    await ip('-n', client, 'addr', 'add', '172.31.0.5/24', 'dev', 'eth0');
    await ip('-n', client, 'link', 'set', 'eth0', 'up');
    await ip('-n', client, 'route', 'add', 'default', 'via', '172.31.0.1');
    await ip('-n', host, 'link', 'add', 'vo', 'type', 'veth', 'peer', 'name', 'eth0', 'netns', outside);
    for (const a of ['10.20.0.1/24', '198.51.100.1/24', '169.254.169.1/24']) await ip('-n', host, 'addr', 'add', a, 'dev', 'vo');
    await ip('-n', host, 'link', 'set', 'vo', 'up');
    for (const a of ['10.20.0.2/24', '198.51.100.2/24', '169.254.169.254/24']) await ip('-n', outside, 'addr', 'add', a, 'dev', 'eth0');
    await ip('-n', outside, 'link', 'set', 'eth0', 'up');
    await ip('-n', outside, 'route', 'add', 'default', 'via', '10.20.0.1');
    await ip('netns', 'exec', host, 'sysctl', '-q', '-w', 'net.ipv4.ip_forward=1');
    await serve(outside, [8080]);
    await serve(host, [3129, 2222]);
  });
  afterAll(async () => {
    for (const s of servers) if (s.pid) process.kill(s.pid);
    try {
      await iptablesFirewall({ netns: host }).remove(table);
    } finally {
      for (const ns of [host, client, outside]) await runProcess(IP, ['netns', 'delete', ns], { timeoutMs: 10_000 });
    }
  });

  const cases: [string, string, number][] = [
    ['an allowed private range', '10.20.0.2', 8080],
    ['a denied range', '198.51.100.2', 8080],
    ['the metadata address, even when a policy allows its range', '169.254.169.254', 8080],
    ['the proxy port on the gateway', '172.31.0.1', 3129],
    ['another port of the host', '172.31.0.1', 2222],
    ['a web port of a denied address', '198.51.100.2', 443],
  ];

  it('reaches everything before the rules are applied', async () => {
    const got = await Promise.all(cases.map(([, a, p]) => probe(a, p)));
    // Nothing listens on port 443 outside: refused there, open everywhere else.
    expect(got).toEqual(['open', 'open', 'open', 'open', 'open', 'ECONNREFUSED']);
  });

  it('judges each connection as the nft rules do', async () => {
    await iptablesFirewall({ netns: host }).apply(table, [net]);
    const got = Object.fromEntries(await Promise.all(cases.map(async ([what, a, p]) => [what, await probe(a, p)])));
    expect(got).toEqual({
      'an allowed private range': 'open',
      // A reset from the reject chain: the client fails at once.
      'a denied range': 'ECONNREFUSED',
      'the metadata address, even when a policy allows its range': 'ECONNREFUSED',
      'the proxy port on the gateway': 'open',
      'another port of the host': 'ECONNREFUSED',
      // With domain rules, web ports go to the proxy whatever the address dialled.
      'a web port of a denied address': 'open',
    });
  });

  it('reaches everything again once the rules are removed', async () => {
    await iptablesFirewall({ netns: host }).remove(table);
    const got = await Promise.all(cases.map(([, a, p]) => probe(a, p)));
    expect(got).toEqual(['open', 'open', 'open', 'open', 'open', 'ECONNREFUSED']);
  });
});
