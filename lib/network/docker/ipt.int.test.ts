// The iptables + ipset form of the owned rules applied to a real kernel, inside a throwaway network
// namespace so the host's own rules are never touched. Needs root, iptables and ipset.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '@/lib/core/process';
import { which } from '@/lib/core/which';
import { compiledPolicy, NS_CLOSED, NS_OPEN } from '@/test/helpers/managed-networks';
import { chooseFirewall, iptablesFirewall } from './firewall';
import { deleteIptables, iptablesAvailable, readIptables } from './ipt';
import { iptablesNames } from './ipt-rules';
import type { ManagedNetwork } from './nft-rules';
import { cidr } from './nft-values';

const SBIN = `${process.env.PATH}:/usr/sbin:/sbin`;
const TOOLS = ['ip', 'iptables', 'ip6tables', 'iptables-restore', 'ip6tables-restore', 'iptables-save', 'ip6tables-save', 'ipset'];
const absent = TOOLS.filter((t) => !which(t, SBIN));
const skipReason = process.getuid?.() !== 0 ? 'needs root' : absent.length ? `needs ${absent.join(', ')}` : '';
if (skipReason) console.warn(`ipt.int.test: skipping the iptables + ipset tests: ${skipReason}`);

const policy = compiledPolicy;

const suffix = randomBytes(4).toString('hex');
const ns = `skdi${suffix}`;
const table = `skilldock_t${suffix}`;
const { chain: P, set: p } = iptablesNames(table);
const on = { netns: ns };

const open = NS_OPEN;
const closed = NS_CLOSED;
const named: ManagedNetwork = {
  ...open,
  key: 'k3',
  bridge: 'sdkk3',
  gateway4: '172.29.0.1',
  subnet4: '172.29.0.0/24',
  policy: policy({ wildcards: ['x.org'] }),
};

const inNs = async (tool: string, args: string[]) => {
  const r = await runProcess(which('ip', SBIN)!, ['netns', 'exec', ns, which(tool, SBIN)!, ...args], { timeoutMs: 10_000 });
  expect(r.code, `${tool} ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
};
const ip = (args: string[]) => runProcess(which('ip', SBIN)!, args, { timeoutMs: 10_000 });
// ipset prints its own forms (a host without a prefix length, ::ffff:0.0.0.0/96): compared as CIDRs.
const members = (list: string[] | undefined) => (list ?? []).map((m) => cidr(m, m.includes(':') ? 6 : 4, 'member')).sort();
const count = (lines: string[], line: string) => lines.filter((l) => l === line).length;

// What is not ours: Docker's chain and jump, a rule of the host, a set of the host.
const FOREIGN_INPUT = '-A INPUT -i lo -j ACCEPT';

describe.skipIf(!!skipReason)('the iptables + ipset rules in a network namespace', () => {
  beforeAll(async () => {
    const made = await ip(['netns', 'add', ns]);
    expect(made.code, made.stderr).toBe(0);
    for (const tool of ['iptables', 'ip6tables']) {
      await inNs(tool, ['-N', 'DOCKER-USER']);
      await inNs(tool, ['-A', 'FORWARD', '-j', 'DOCKER-USER']);
      await inNs(tool, FOREIGN_INPUT.split(' '));
    }
    await inNs('ipset', ['create', 'host-set', 'hash:ip']);
  });
  afterAll(async () => {
    try {
      await deleteIptables(table, on);
    } finally {
      await ip(['netns', 'delete', ns]);
    }
  });

  it('finds iptables and ipset usable', async () => {
    expect(await iptablesAvailable(on)).toBe(true);
    // nft is the first choice wherever it works; this kernel has both.
    expect((await chooseFirewall(on))?.kind).toBe(which('nft', SBIN) ? 'nft' : 'iptables');
  });

  it('installs the always-blocked ranges in the hard sets', async () => {
    await iptablesFirewall(on).apply(table, [open, closed, named]);
    const state = await readIptables(table, on);
    const hard4 = members(state.sets[`${p}-hard4`]);
    for (const range of ['169.254.0.0/16', '100.100.100.200/32', '168.63.129.16/32', '127.0.0.0/8']) expect(hard4).toContain(range);
    const hard6 = members(state.sets[`${p}-hard6`]);
    for (const range of ['fe80::/10', 'fd00:ec2::254/128', '::1/128', '::ffff:0:0/96']) expect(hard6).toContain(range);
    expect(members(state.sets[`${p}-priv4`])).toContain('10.0.0.0/8');
    expect(members(state.sets[`${p}-a4-k2`])).toEqual(['10.20.0.0/16']);
    expect(Object.keys(state.sets).some((n) => n.endsWith('-t'))).toBe(false);
  });

  it('hooks once at the top of DOCKER-USER, INPUT and nat PREROUTING, each network on its bridge', async () => {
    const state = await readIptables(table, on);
    for (const f of ['v4', 'v6'] as const) {
      expect(count(state[f].filter, `-A DOCKER-USER -j ${P}-FWD`)).toBe(1);
      expect(count(state[f].filter, `-A INPUT -j ${P}-IN`)).toBe(1);
      expect(count(state[f].nat, `-A PREROUTING -j ${P}-PRE`)).toBe(1);
      for (const k of ['k1', 'k2', 'k3']) {
        expect(state[f].filter).toContain(`-A ${P}-FWD -i sdk${k} -j ${P}-N-${k}`);
        expect(state[f].filter).toContain(`-A ${P}-IN -i sdk${k} -j ${P}-I-${k}`);
      }
    }
    const input = (await inNs('iptables', ['-S', 'INPUT'])).trim().split('\n');
    expect(input.slice(1)).toEqual([`-A INPUT -j ${P}-IN`, FOREIGN_INPUT]);
    expect((await inNs('iptables', ['-S', 'FORWARD'])).trim().split('\n').slice(1)).toEqual(['-A FORWARD -j DOCKER-USER']);
    // Web ports go to the proxy only where domains are listed, and IPv6 only with an IPv6 gateway.
    expect(state.v4.nat).toContain(`-A ${P}-PRE -i sdkk2 -j ${P}-P-k2`);
    expect(state.v4.nat).toContain(`-A ${P}-PRE -i sdkk3 -j ${P}-P-k3`);
    expect(state.v6.nat).toContain(`-A ${P}-PRE -i sdkk2 -j ${P}-P-k2`);
    expect(state.v6.nat.some((r) => r.includes('sdkk3'))).toBe(false);
    expect(state.v4.nat).not.toContain(`-A ${P}-PRE -i sdkk1 -j ${P}-P-k1`);
    expect(state.v4.filter.filter((r) => r.startsWith(`-A ${P}-N-k2 `)).at(-1)).toBe(`-A ${P}-N-k2 -g ${P}-REJ`);
    expect(state.v4.filter.filter((r) => r.startsWith(`-A ${P}-N-k1 `)).at(-1)).toBe(`-A ${P}-N-k1 -j RETURN`);
  });

  it('swaps the set contents on a second apply, drops what is gone, and does not duplicate jumps', async () => {
    const changed = { ...closed, policy: policy({ ...closed.policy, allow4: ['10.99.0.0/16', '203.0.113.7'], deny4: [], allow6: [], deny6: ['::/0'] }) };
    await iptablesFirewall(on).apply(table, [open, changed]);
    const state = await readIptables(table, on);
    expect(members(state.sets[`${p}-a4-k2`])).toEqual(['10.99.0.0/16', '203.0.113.7/32']);
    expect(members(state.sets[`${p}-d4-k2`])).toEqual([]);
    expect(members(state.sets[`${p}-a6-k2`])).toEqual([]);
    // hash:net cannot hold a /0: "everything" is its two halves.
    expect(members(state.sets[`${p}-d6-k2`])).toEqual(['8000::/1', '::/1']);
    expect(Object.keys(state.sets).filter((n) => n.endsWith('-k3'))).toEqual([]);
    for (const f of ['v4', 'v6'] as const) {
      expect(count(state[f].filter, `-A DOCKER-USER -j ${P}-FWD`)).toBe(1);
      expect(count(state[f].filter, `-A INPUT -j ${P}-IN`)).toBe(1);
      expect(count(state[f].nat, `-A PREROUTING -j ${P}-PRE`)).toBe(1);
      expect([...state[f].filter, ...state[f].nat].some((r) => r.includes('k3'))).toBe(false);
    }
  });

  it('hooks into FORWARD while Docker has no chain of its own, and moves there once it appears', async () => {
    const fwdJumps6 = async () => (await readIptables(table, on)).v6.filter.filter((r) => r.endsWith(`-j ${P}-FWD`));
    await inNs('ip6tables', ['-D', 'DOCKER-USER', '-j', `${P}-FWD`]);
    await inNs('ip6tables', ['-D', 'FORWARD', '-j', 'DOCKER-USER']);
    await inNs('ip6tables', ['-X', 'DOCKER-USER']);
    await iptablesFirewall(on).apply(table, [open]);
    expect(await fwdJumps6()).toEqual([`-A FORWARD -j ${P}-FWD`]);
    await inNs('ip6tables', ['-N', 'DOCKER-USER']);
    await inNs('ip6tables', ['-I', 'FORWARD', '-j', 'DOCKER-USER']);
    await iptablesFirewall(on).apply(table, [open]);
    expect(await fwdJumps6()).toEqual([`-A DOCKER-USER -j ${P}-FWD`]);
  });

  it('deletes everything of its own and nothing else, and deleting again is a no-op', async () => {
    await iptablesFirewall(on).remove(table);
    expect(await readIptables(table, on)).toEqual({ v4: { filter: [], nat: [] }, v6: { filter: [], nat: [] }, sets: {} });
    for (const tool of ['iptables-save', 'ip6tables-save']) expect(await inNs(tool, [])).not.toContain(P);
    expect((await inNs('iptables', ['-S', 'INPUT'])).trim().split('\n').slice(1)).toEqual([FOREIGN_INPUT]);
    expect((await inNs('ip6tables', ['-S', 'FORWARD'])).trim().split('\n').slice(1)).toEqual(['-A FORWARD -j DOCKER-USER']);
    expect((await inNs('ipset', ['list', '-n'])).trim()).toBe('host-set');
    await iptablesFirewall(on).remove(table);
  });
});
