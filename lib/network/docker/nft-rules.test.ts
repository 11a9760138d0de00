import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { compiledPolicy, GOLDEN_CLOSED, GOLDEN_OPEN } from '@/test/helpers/managed-networks';
import { renderTable } from './nft-rules';

const policy = compiledPolicy;

const openNet = GOLDEN_OPEN;
const closedNet = GOLDEN_CLOSED;

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a refusal');
};

describe('renderTable', () => {
  it('renders a default-allow network without lists', async () => {
    await expect(renderTable('skilldock', [openNet])).toMatchFileSnapshot('./__golden__/default-allow.nft');
  });

  it('renders a default-deny network with IPv4 and IPv6 CIDRs and domains', async () => {
    await expect(renderTable('skilldock', [closedNet])).toMatchFileSnapshot('./__golden__/default-deny-dual-stack.nft');
  });

  it('renders two networks in one table', async () => {
    await expect(renderTable('skilldock_t1', [openNet, closedNet])).toMatchFileSnapshot('./__golden__/two-networks.nft');
  });

  it('replaces the whole table in one script', () => {
    const lines = renderTable('skilldock', []).split('\n');
    expect(lines.slice(0, 3)).toEqual(['table inet skilldock {}', 'delete table inet skilldock', 'table inet skilldock {']);
  });

  it('normalises addresses and CIDRs before writing them', () => {
    const script = renderTable('skilldock', [
      { ...closedNet, gateway6: 'FD12:0000::0001', policy: policy({ allow4: ['10.1.2.3/8', '10.0.0.0/8'], allow6: ['2001:DB8:0:0::1/32'] }) },
    ]);
    expect(script).toContain('elements = { 10.0.0.0/8 }');
    expect(script).toContain('elements = { 2001:db8::/32 }');
    expect(script).toContain('ip6 daddr fd12::1 udp dport 5354 return');
  });

  it('redirects IPv6 web traffic only when the network has an IPv6 gateway', () => {
    const v4only = renderTable('skilldock', [{ ...openNet, policy: policy({ denyEgressByDefault: true, domains: ['x.org'] }) }]);
    expect(v4only).toContain('meta nfproto ipv4 meta l4proto tcp th dport { 80, 443 } redirect to :3128');
    expect(renderTable('skilldock', [closedNet])).toContain('\t\tmeta l4proto tcp th dport { 80, 443 } redirect to :3129');
  });

  it('redirects DNS to the forwarder only when it does not listen on port 53', () => {
    expect(renderTable('skilldock', [openNet])).toContain(
      'iifname "sdka1b2c3d4e5" ip daddr 172.30.0.1 meta l4proto { tcp, udp } th dport 53 redirect to :5353',
    );
    expect(renderTable('skilldock', [{ ...openNet, dnsPort: 53 }])).not.toContain('redirect');
  });

  const hostile: [string, () => unknown][] = [
    ['a bridge name with a quote', () => renderTable('skilldock', [{ ...openNet, bridge: 'br"; flush ruleset' }])],
    ['a bridge name with a newline', () => renderTable('skilldock', [{ ...openNet, bridge: 'br0\nflush' }])],
    ['a bridge name with a semicolon', () => renderTable('skilldock', [{ ...openNet, bridge: 'br0;' }])],
    ['a bridge name longer than 15', () => renderTable('skilldock', [{ ...openNet, bridge: 'abcdefghijklmnop' }])],
    ['a table name with spaces', () => renderTable('skilldock x', [openNet])],
    ['a table name not starting with skilldock', () => renderTable('filter', [openNet])],
    ['a key with a brace', () => renderTable('skilldock', [{ ...openNet, key: 'a}' }])],
    ['a gateway that is not an IP', () => renderTable('skilldock', [{ ...openNet, gateway4: '172.30.0.1 accept' }])],
    ['a gateway in a short IPv4 form', () => renderTable('skilldock', [{ ...openNet, gateway4: '0x7f.1' }])],
    ['an IPv6 gateway with a zone', () => renderTable('skilldock', [{ ...closedNet, gateway6: 'fe80::1%eth0' }])],
    ['an IPv6 address in the IPv4 list', () => renderTable('skilldock', [{ ...openNet, policy: policy({ allow4: ['2001:db8::/32'] }) }])],
    ['a CIDR with a bad prefix', () => renderTable('skilldock', [{ ...openNet, policy: policy({ deny4: ['10.0.0.0/33'] }) }])],
    ['a CIDR with a rule after it', () => renderTable('skilldock', [{ ...openNet, policy: policy({ deny6: ['::/0 } accept'] }) }])],
    ['a fractional port', () => renderTable('skilldock', [{ ...openNet, proxyPort: 3128.5 }])],
    ['a port given as text', () => renderTable('skilldock', [{ ...openNet, dnsPort: '53 accept' as unknown as number }])],
    ['two networks with one key', () => renderTable('skilldock', [openNet, { ...closedNet, key: openNet.key }])],
    ['two networks on one bridge', () => renderTable('skilldock', [openNet, { ...closedNet, bridge: openNet.bridge }])],
  ];
  it.each(hostile)('refuses %s with a validation error', (_what, fn) => {
    const e = refusal(fn);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('validation');
  });
});
