import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { compiledPolicy, GOLDEN_CLOSED, GOLDEN_OPEN } from '@/test/helpers/managed-networks';
import { applyIptables, deleteIptables, readIptables } from './ipt';
import { hooks, iptablesNames, renderIptables } from './ipt-rules';
import type { ManagedNetwork } from './nft-rules';

const policy = compiledPolicy;

const openNet = GOLDEN_OPEN;
const closedNet = GOLDEN_CLOSED;

const golden = (name: string, nets: ManagedNetwork[], table = 'skilldock') => {
  const r = renderIptables(table, nets);
  return Promise.all([
    expect(r.ipset).toMatchFileSnapshot(`./__golden__/${name}.ipset`),
    expect(r.v4).toMatchFileSnapshot(`./__golden__/${name}.v4.iptables`),
    expect(r.v6).toMatchFileSnapshot(`./__golden__/${name}.v6.iptables`),
  ]);
};

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a refusal');
};

describe('renderIptables', () => {
  it('renders a default-allow network without lists', () => golden('ipt-default-allow', [openNet]));
  it('renders a default-deny network with IPv4 and IPv6 CIDRs and domains', () => golden('ipt-default-deny-dual-stack', [closedNet]));
  it('renders two networks', () => golden('ipt-two-networks', [openNet, closedNet], 'skilldock_t1'));

  it('names everything with a prefix of the table, distinct per table', () => {
    expect(iptablesNames('skilldock')).toEqual({ chain: 'SKD', set: 'skd' });
    expect(iptablesNames('skilldock_t1')).toEqual({ chain: 'SKD_T1', set: 'skd_t1' });
    const r = renderIptables('skilldock_t1', [openNet]);
    for (const name of r.sets) expect(name.startsWith('skd_t1-')).toBe(true);
    for (const f of ['v4', 'v6'] as const) for (const c of [...r.chains[f].filter, ...r.chains[f].nat]) expect(c.startsWith('SKD_T1-')).toBe(true);
    expect(hooks('skilldock_t1').map((h) => `${h.table} ${h.chain} ${h.target}`)).toEqual([
      'filter DOCKER-USER SKD_T1-FWD',
      'filter INPUT SKD_T1-IN',
      'nat PREROUTING SKD_T1-PRE',
    ]);
  });

  it('fills each set under a temporary name and swaps it into the live one', () => {
    const lines = renderIptables('skilldock', [closedNet]).ipset.split('\n');
    const at = lines.indexOf('create skd-a4-f0e1d2c3b4 hash:net family inet -exist');
    expect(lines.slice(at, at + 7)).toEqual([
      'create skd-a4-f0e1d2c3b4 hash:net family inet -exist',
      'create skd-a4-f0e1d2c3b4-t hash:net family inet -exist',
      'flush skd-a4-f0e1d2c3b4-t',
      'add skd-a4-f0e1d2c3b4-t 10.20.0.0/16 -exist',
      'add skd-a4-f0e1d2c3b4-t 203.0.113.7/32 -exist',
      'swap skd-a4-f0e1d2c3b4-t skd-a4-f0e1d2c3b4',
      'destroy skd-a4-f0e1d2c3b4-t',
    ]);
  });

  it('writes "everything" as two halves, which hash:net can hold', () => {
    const r = renderIptables('skilldock', [{ ...openNet, policy: policy({ allow4: ['0.0.0.0/0'], deny6: ['::/0'] }) }]);
    expect(r.ipset).toContain('add skd-a4-a1b2c3d4e5-t 0.0.0.0/1 -exist\nadd skd-a4-a1b2c3d4e5-t 128.0.0.0/1 -exist\n');
    expect(r.ipset).toContain('add skd-d6-a1b2c3d4e5-t ::/1 -exist\nadd skd-d6-a1b2c3d4e5-t 8000::/1 -exist\n');
    expect(r.ipset).not.toMatch(/\/0 /);
  });

  it('redirects IPv6 only when the network has an IPv6 gateway, and DNS only off port 53', () => {
    const named = { ...openNet, dnsPort: 53, policy: policy({ domains: ['x.org'] }) };
    const r = renderIptables('skilldock', [named]);
    expect(r.v4).toContain('-A SKD-PRE -i sdka1b2c3d4e5 -j SKD-P-a1b2c3d4e5\n');
    expect(r.v4).not.toContain('--dport 53 -j REDIRECT');
    expect(r.v6).not.toContain('REDIRECT');
    expect(r.chains.v6.nat).toEqual(['SKD-PRE']);
  });

  const hostile: [string, () => unknown][] = [
    ['a bridge name with a space', () => renderIptables('skilldock', [{ ...openNet, bridge: 'br0 -j ACCEPT' }])],
    ['a bridge name with a newline', () => renderIptables('skilldock', [{ ...openNet, bridge: 'br0\nCOMMIT' }])],
    ['a table name with a dash', () => renderIptables('skilldock-x', [openNet])],
    ['a table name not starting with skilldock', () => renderIptables('filter', [openNet])],
    ['a key with a dash', () => renderIptables('skilldock', [{ ...openNet, key: 'a-b' }])],
    ['a gateway with an option after it', () => renderIptables('skilldock', [{ ...openNet, gateway4: '172.30.0.1 -j ACCEPT' }])],
    ['an IPv6 gateway with a zone', () => renderIptables('skilldock', [{ ...closedNet, gateway6: 'fe80::1%eth0' }])],
    ['a CIDR with a second line', () => renderIptables('skilldock', [{ ...openNet, policy: policy({ allow4: ['10.0.0.0/8\nflush'] }) }])],
    ['an IPv4 CIDR in the IPv6 list', () => renderIptables('skilldock', [{ ...openNet, policy: policy({ deny6: ['10.0.0.0/8'] }) }])],
    ['a port given as text', () => renderIptables('skilldock', [{ ...openNet, proxyPort: '80,443' as unknown as number }])],
    ['two networks on one bridge', () => renderIptables('skilldock', [openNet, { ...closedNet, bridge: openNet.bridge }])],
  ];
  it.each(hostile)('refuses %s with a validation error', (_what, fn) => {
    const e = refusal(fn);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('validation');
  });

  it('refuses a table whose names would pass the kernel limits, and takes the longest that fits', () => {
    const e = refusal(() => renderIptables(`skilldock_${'x'.repeat(12)}`, [openNet]));
    expect(e).toMatchObject({ code: 'validation', message: expect.stringContaining('longer than 31 characters') });
    const fits = renderIptables(`skilldock_${'x'.repeat(11)}`, [openNet]);
    expect(Math.max(...fits.sets.map((s) => `${s}-t`.length))).toBe(31);
    expect(Math.max(...[...fits.chains.v4.filter, ...fits.chains.v4.nat].map((c) => c.length))).toBeLessThanOrEqual(28);
  });
});

// Refused before any program runs: these never reach iptables, ipset or ip.
describe('iptables program arguments', () => {
  it.each([
    ['a table name with a space', () => readIptables('skilldock x')],
    ['a table name for delete that is not ours', () => deleteIptables('filter')],
    ['a namespace name with a slash', () => applyIptables('skilldock', [], { netns: '../x' })],
    ['a hostile network', () => applyIptables('skilldock', [{ ...openNet, bridge: 'br0 -j ACCEPT' }])],
  ])('refuses %s', async (_what, run) => {
    await expect(run()).rejects.toMatchObject({ code: 'validation' });
  });
});
