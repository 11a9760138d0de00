// The owned table applied to a real kernel, inside a throwaway network namespace so the host's
// ruleset is never touched; what the kernel holds is read back with `nft -j`. Needs root and nft.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { runProcess } from '@/lib/core/process';
import { which } from '@/lib/core/which';
import { compiledPolicy, NS_CLOSED, NS_OPEN } from '@/test/helpers/managed-networks';
import { flushSubnet } from './conntrack';
import { applyTable, deleteTable, type ManagedNetwork, nftAvailable, readTable, renderTable } from './nft';
import { baseChains, chainRules, setCovers, setElements } from './nft-json';

const SBIN = `${process.env.PATH}:/usr/sbin:/sbin`;
const skipReason = process.getuid?.() !== 0 ? 'needs root' : !which('nft', SBIN) ? 'needs nft (nftables)' : !which('ip', SBIN) ? 'needs ip (iproute2)' : '';
if (skipReason) console.warn(`nft.int.test: skipping the nft table tests: ${skipReason}`);

const policy = compiledPolicy;

const suffix = randomBytes(4).toString('hex');
const ns = `skdt${suffix}`;
const table = `skilldock_t${suffix}`;
const on = { netns: ns };

const open = NS_OPEN;
const closed = NS_CLOSED;

// IPv4 only, with a domain: its web ports are redirected for IPv4 alone.
const named: ManagedNetwork = {
  ...open,
  key: 'k3',
  bridge: 'sdkk3',
  gateway4: '172.29.0.1',
  subnet4: '172.29.0.0/24',
  policy: policy({ denyEgressByDefault: true, wildcards: ['x.org'] }),
};

const ip = (args: string[]) => runProcess(which('ip', SBIN)!, args, { timeoutMs: 10_000 });

describe.skipIf(!!skipReason)('the owned nft table in a network namespace', () => {
  beforeAll(async () => {
    const made = await ip(['netns', 'add', ns]);
    expect(made.code, made.stderr).toBe(0);
  });
  afterAll(async () => {
    try {
      await deleteTable(table, on);
    } finally {
      await ip(['netns', 'delete', ns]);
    }
  });

  it('finds nft usable', async () => {
    expect(await nftAvailable(on)).toBe(true);
  });

  it('installs the always-blocked ranges in the hard sets', async () => {
    await applyTable(renderTable(table, [open, closed, named]), on);
    const json = await readTable(table, on);
    for (const cidr of ['169.254.0.0/16', '169.254.169.254', '100.100.100.200', '168.63.129.16', '127.0.0.0/8', '224.0.0.0/4']) {
      expect(setCovers(json, 'hard4', cidr), cidr).toBe(true);
    }
    for (const cidr of ['fe80::/10', 'fd00:ec2::254', '::1', '::ffff:0:0/96']) expect(setCovers(json, 'hard6', cidr), cidr).toBe(true);
    expect(setCovers(json, 'hard4', '8.8.8.8')).toBe(false);
    expect(setCovers(json, 'priv4', '10.0.0.0/8') && setCovers(json, 'priv6', 'fc00::/7')).toBe(true);
  });

  it('hooks each network on its own bridge in forward, input and (with domains) prerouting', async () => {
    const json = await readTable(table, on);
    expect(baseChains(json)).toEqual({
      sbx_forward: 'filter forward -10 accept',
      sbx_input: 'filter input -10 accept',
      sbx_pre: 'nat prerouting -110 accept',
    });
    expect(chainRules(json, 'sbx_forward')).toEqual(['iifname sdkk1 jump n_k1', 'iifname sdkk2 jump n_k2', 'iifname sdkk3 jump n_k3']);
    expect(chainRules(json, 'sbx_input')).toEqual(['iifname sdkk1 jump i_k1', 'iifname sdkk2 jump i_k2', 'iifname sdkk3 jump i_k3']);
    // DNS to the gateway reaches the forwarder's port; web ports go to the proxy only where domains are listed.
    expect(chainRules(json, 'sbx_pre')).toEqual([
      'iifname sdkk1 ip daddr 172.30.0.1 l4proto { tcp, udp } th dport 53 redirect to :5353',
      'iifname sdkk2 ip daddr 172.31.0.1 l4proto { tcp, udp } th dport 53 redirect to :5354',
      'iifname sdkk2 ip6 daddr fd12::1 l4proto { tcp, udp } th dport 53 redirect to :5354',
      'iifname sdkk2 jump p_k2',
      'iifname sdkk3 ip daddr 172.29.0.1 l4proto { tcp, udp } th dport 53 redirect to :5353',
      'iifname sdkk3 jump p_k3',
    ]);
    expect(chainRules(json, 'p_k2').at(-1)).toBe('tcp dport { 80, 443 } redirect to :3129');
    // CIDR-allowed destinations are judged by the proxy too: only the gateway itself is left alone.
    expect(chainRules(json, 'p_k3')).toEqual(['ip daddr 172.29.0.1 return', 'nfproto ipv4 tcp dport { 80, 443 } redirect to :3128']);
    expect(chainRules(json, 'i_k2')).toContain('ip6 daddr fd12::1 udp dport 5354 return');
  });

  it('judges IPv6 like IPv4, rule for rule', async () => {
    const json = await readTable(table, on);
    for (const key of ['k1', 'k2']) {
      const rules = chainRules(json, `n_${key}`);
      const v4 = rules.filter((r) => r.startsWith('ip daddr'));
      const v6 = rules.filter((r) => r.startsWith('ip6 daddr'));
      expect(v4).toHaveLength(4);
      expect(v6).toEqual(v4.map((r) => r.replace('ip daddr', 'ip6 daddr').replace(/@(hard|priv|a|d)4/, '@$16')));
      for (const r of v4) expect(rules[rules.indexOf(r) + 1]).toBe(v6[v4.indexOf(r)]);
    }
    expect(chainRules(json, 'n_k1').at(-1)).toBe('return');
    expect(chainRules(json, 'n_k2').slice(-2)).toEqual(['udp dport 443 goto sbx_reject', 'goto sbx_reject']);
  });

  it('swaps the per-network sets in one transaction when the policy changes', async () => {
    const changed = { ...closed, policy: policy({ ...closed.policy, allow4: ['10.99.0.0/16', '203.0.113.7'], deny4: [], allow6: [] }) };
    await applyTable(renderTable(table, [open, changed]), on);
    const json = await readTable(table, on);
    expect(setElements(json, 'a4_k2').sort()).toEqual(['10.99.0.0/16', '203.0.113.7']);
    expect(setElements(json, 'd4_k2')).toEqual([]);
    expect(setElements(json, 'a6_k2')).toEqual([]);

    // A script that fails part-way changes nothing: the table read back is still the previous one.
    const broken = `${renderTable(table, [open, closed])}add rule inet ${table} n_k2 ip daddr @missing_set return\n`;
    await expect(applyTable(broken, on)).rejects.toMatchObject({ code: 'internal' });
    expect(setElements(await readTable(table, on), 'a4_k2').sort()).toEqual(['10.99.0.0/16', '203.0.113.7']);
  });

  it('flushes the tracked flows of a subnet, none being an empty success', async () => {
    expect(await flushSubnet('172.31.0.0/24', on)).toBe(0);
    expect(await flushSubnet('fd12::/64', on)).toBe(0);
    await expect(flushSubnet('172.31.0.0/33', on)).rejects.toBeInstanceOf(AppError);
  });

  it('flushes only the flows whose source is in the subnet', async () => {
    const conntrack = which('conntrack', SBIN)!;
    const track = async (src: string, dst: string) => {
      const r = await ip(['netns', 'exec', ns, conntrack, '-I', '-s', src, '-d', dst, '-p', 'udp', '--sport', '1000', '--dport', '53', '-t', '60']);
      expect(r.code, r.stderr).toBe(0);
    };
    await track('172.31.0.5', '172.31.0.9');
    await track('172.30.0.5', '172.30.0.9');
    await track('fd12::5', 'fd12::9');
    expect(await flushSubnet('172.31.0.0/24', on)).toBe(1);
    expect(await flushSubnet('fd12::/64', on)).toBe(1);
    expect(await flushSubnet('172.30.0.0/24', on)).toBe(1);
    expect(await flushSubnet('172.31.0.0/24', on)).toBe(0);
  });

  it('opens the proxy port to a network only when its policy has domain rules', async () => {
    const plain: ManagedNetwork = { ...open, key: 'k4', bridge: 'sdkk4', gateway4: '172.28.0.1', subnet4: '172.28.0.0/24' };
    const wide: ManagedNetwork = { ...plain, key: 'k5', bridge: 'sdkk5', policy: policy({ allow4: ['0.0.0.0/0'], allow6: ['::/0'] }) };
    await applyTable(renderTable(table, [plain, wide, named]), on);
    const json = await readTable(table, on);
    for (const key of ['k4', 'k5']) {
      const rules = chainRules(json, `i_${key}`);
      expect(rules.filter((r) => r.includes('tcp dport'))).toEqual(['ip daddr 172.28.0.1 tcp dport 5353 return']);
      expect(rules.join('\n')).not.toContain('3128');
      expect(rules.at(-1)).toBe('goto sbx_reject');
    }
    // With domain rules the redirect sends web traffic to the proxy, so its port is open on the gateway.
    expect(chainRules(json, 'i_k3')).toContain('ip daddr 172.29.0.1 tcp dport { 3128, 5353 } return');
  });

  it('denies both families by default when denyOut holds 0.0.0.0/0 or ::/0, without the switch', async () => {
    const base: ManagedNetwork = { ...open, gateway6: 'fd13::1', subnet6: 'fd13::/64' };
    const v4all: ManagedNetwork = {
      ...base,
      key: 'k6',
      bridge: 'sdkk6',
      gateway4: '172.27.0.1',
      subnet4: '172.27.0.0/24',
      policy: policy({ deny4: ['0.0.0.0/0'] }),
    };
    const v6all: ManagedNetwork = {
      ...base,
      key: 'k7',
      bridge: 'sdkk7',
      gateway4: '172.26.0.1',
      subnet4: '172.26.0.0/24',
      gateway6: 'fd14::1',
      subnet6: 'fd14::/64',
      policy: policy({ deny6: ['::/0'] }),
    };
    await applyTable(renderTable(table, [open, v4all, v6all]), on);
    const json = await readTable(table, on);
    expect(chainRules(json, 'n_k1').at(-1)).toBe('return');
    for (const key of ['k6', 'k7']) {
      // The last rule of the chain is what any address no set names meets, IPv4 and IPv6 alike.
      expect(chainRules(json, `n_${key}`).at(-1), key).toBe('goto sbx_reject');
      expect(chainRules(json, `n_${key}`)).not.toContain('return');
    }
    expect(setElements(json, 'd4_k6')).toEqual(['0.0.0.0/0']);
    expect(setElements(json, 'd6_k7')).toEqual(['::/0']);
  });

  it('deletes the table, and deleting it again is a no-op', async () => {
    await deleteTable(table, on);
    await expect(readTable(table, on)).rejects.toMatchObject({ code: 'not_found' });
    await deleteTable(table, on);
  });
});
