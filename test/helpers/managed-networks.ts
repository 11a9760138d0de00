// Networks for the firewall renderers' tests (nft and iptables): the same inputs, so the two
// renderers are held to the same cases.
import type { ManagedNetwork } from '@/lib/network/docker/nft-rules';
import type { CompiledPolicy } from '@/lib/network/policy/types';

export const compiledPolicy = (over: Partial<CompiledPolicy> = {}): CompiledPolicy => ({
  denyEgressByDefault: false,
  allow4: [],
  allow6: [],
  deny4: [],
  deny6: [],
  domains: [],
  wildcards: [],
  ...over,
});

/** The golden files' networks: default allow with no lists; default deny, dual stack, every kind of entry. */
export const GOLDEN_OPEN: ManagedNetwork = {
  key: 'a1b2c3d4e5',
  bridge: 'sdka1b2c3d4e5',
  gateway4: '172.30.0.1',
  subnet4: '172.30.0.0/24',
  policy: compiledPolicy(),
  proxyPort: 3128,
  dnsPort: 5353,
};

export const GOLDEN_CLOSED: ManagedNetwork = {
  key: 'f0e1d2c3b4',
  bridge: 'sdkf0e1d2c3b4',
  gateway4: '172.31.0.1',
  subnet4: '172.31.0.0/24',
  gateway6: 'fd12:0:0:0::1',
  subnet6: 'fd12::/64',
  policy: compiledPolicy({
    denyEgressByDefault: true,
    allow4: ['10.20.0.0/16', '203.0.113.7'],
    allow6: ['2001:db8::/32'],
    deny4: ['198.51.100.0/24'],
    deny6: ['2001:db8:dead::/48'],
    domains: ['pypi.org'],
    wildcards: ['files.pythonhosted.org'],
  }),
  proxyPort: 3129,
  dnsPort: 5354,
};

/** The namespace tests' networks (short keys, bridges that exist only as names in the rules). */
export const NS_OPEN: ManagedNetwork = {
  key: 'k1',
  bridge: 'sdkk1',
  gateway4: '172.30.0.1',
  subnet4: '172.30.0.0/24',
  policy: compiledPolicy(),
  proxyPort: 3128,
  dnsPort: 5353,
};

export const NS_CLOSED: ManagedNetwork = {
  key: 'k2',
  bridge: 'sdkk2',
  gateway4: '172.31.0.1',
  subnet4: '172.31.0.0/24',
  gateway6: 'fd12::1',
  subnet6: 'fd12::/64',
  policy: compiledPolicy({ denyEgressByDefault: true, allow4: ['10.20.0.0/16'], allow6: ['2001:db8::/32'], deny4: ['198.51.100.0/24'], domains: ['pypi.org'] }),
  proxyPort: 3129,
  dnsPort: 5354,
};
