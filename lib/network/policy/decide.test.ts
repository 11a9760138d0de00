import { describe, expect, it } from 'vitest';
import { compilePolicy, hasDomainRules, isDenyAll } from './compile';
import { decideAddress, decideDestination, decideName, decideResolved, nameAllowed } from './decide';
import { isDestinationIssue, parseDestination } from './destination';
import type { CompiledPolicy, NetworkPolicy } from './types';
import { validatePolicy } from './validate';

const compiled = (input: Partial<NetworkPolicy>): CompiledPolicy => {
  const r = validatePolicy('docker', input);
  if (!r.policy) throw new Error(JSON.stringify(r.issues));
  return compilePolicy(r.policy);
};

const open = compiled({});
const denyAll = compiled({ denyEgressByDefault: true, allowOut: ['*.pypi.org', 'files.pythonhosted.org', '10.20.0.0/16', '2001:db8::/32', '8.8.8.8'] });
const mixed = compiled({ allowOut: ['1.2.3.0/24', '172.16.5.5'], denyOut: ['1.2.0.0/16', '9.9.9.9', '2001:db8:bad::/48'] });
const v4DenyAll = compiled({ allowOut: ['x.com'], denyOut: ['0.0.0.0/0'] });
const v6DenyAll = compiled({ allowOut: ['x.com'], denyOut: ['::/0'] });

describe('compilePolicy', () => {
  it('splits by family and kind', () => {
    expect(denyAll).toEqual({
      denyEgressByDefault: true,
      allow4: ['10.20.0.0/16', '8.8.8.8/32'],
      allow6: ['2001:db8::/32'],
      deny4: [],
      deny6: [],
      domains: ['files.pythonhosted.org'],
      wildcards: ['pypi.org'],
    });
    expect(mixed.deny6).toEqual(['2001:db8:bad::/48']);
    expect(hasDomainRules(denyAll)).toBe(true);
    expect(hasDomainRules(mixed)).toBe(false);
  });

  it('is deny-all with the switch or with 0.0.0.0/0 or ::/0 in denyOut', () => {
    expect([isDenyAll(open), isDenyAll(denyAll), isDenyAll(mixed), isDenyAll(v4DenyAll), isDenyAll(v6DenyAll)]).toEqual([false, true, false, true, true]);
  });
});

type Row = [string, CompiledPolicy, string, number, boolean, string, string?];
// [what, policy, address, port, allowed, kind, entry]
const ADDRESSES: Row[] = [
  ['metadata is always blocked', open, '169.254.169.254', 80, false, 'always-blocked', '169.254.0.0/16'],
  ['metadata is blocked even when allowed by a wide CIDR', compiled({ allowOut: ['169.0.0.0/8'] }), '169.254.169.254', 80, false, 'always-blocked'],
  ['v4-mapped metadata is judged as IPv4', open, '::ffff:169.254.169.254', 443, false, 'always-blocked', '169.254.0.0/16'],
  ['v4-mapped public is judged as IPv4', open, '::ffff:1.1.1.1', 443, true, 'default-allow'],
  ['loopback v6', open, '::1', 80, false, 'always-blocked', '::1/128'],
  ['NAT64 onto metadata', open, '64:ff9b::a9fe:a9fe', 80, false, 'always-blocked', '64:ff9b::/96'],
  ['AWS v6 metadata', open, 'fd00:ec2::254', 80, false, 'always-blocked'],
  ['private without an allow', open, '10.1.2.3', 443, false, 'private', '10.0.0.0/8'],
  ['unique local without an allow', open, 'fd12::1', 443, false, 'private', 'fc00::/7'],
  ['private with a covering allow', denyAll, '10.20.3.4', 5432, true, 'allow-out', '10.20.0.0/16'],
  ['private next to the allow', denyAll, '10.21.0.1', 443, false, 'private'],
  ['private allowed by one address', mixed, '172.16.5.5', 22, true, 'allow-out', '172.16.5.5/32'],
  ['allow beats deny', mixed, '1.2.3.4', 443, true, 'allow-out', '1.2.3.0/24'],
  ['deny outside the allow', mixed, '1.2.4.4', 443, false, 'deny-out', '1.2.0.0/16'],
  ['deny v6', mixed, '2001:db8:bad::1', 443, false, 'deny-out', '2001:db8:bad::/48'],
  ['DNS to anything is denied', open, '1.1.1.1', 53, false, 'dns'],
  ['DNS to an allowed address passes (allow comes first)', denyAll, '8.8.8.8', 53, true, 'allow-out'],
  ['default allow', open, '93.184.216.34', 443, true, 'default-allow'],
  ['default deny', denyAll, '93.184.216.34', 443, false, 'default-deny'],
  ['allowed v6', denyAll, '2001:db8::99', 443, true, 'allow-out', '2001:db8::/32'],
  ['0.0.0.0/0 in denyOut also denies IPv6 by default', v4DenyAll, '2606:4700::1', 443, false, 'default-deny'],
  ['::/0 in denyOut also denies IPv4 by default', v6DenyAll, '93.184.216.34', 443, false, 'default-deny'],
  ['::/0 in denyOut denies IPv6', v6DenyAll, '2606:4700::1', 443, false, 'deny-out', '::/0'],
  ['not an address', open, '2852039166', 443, false, 'unresolved'],
];

describe('decideAddress', () => {
  it.each(ADDRESSES)('%s', (_, c, ip, port, allowed, kind, entry) => {
    const d = decideAddress(c, ip, port);
    expect({ allowed: d.allowed, kind: d.kind }).toEqual({ allowed, kind });
    if (entry) expect(d.entry).toBe(entry);
    expect(d.rule.length).toBeGreaterThan(10);
  });

  it('names the entry and the range in one sentence', () => {
    expect(decideAddress(open, '169.254.169.254', 80).rule).toBe(
      '169.254.169.254 is always blocked (link-local, including the cloud metadata address 169.254.169.254).',
    );
    expect(decideAddress(mixed, '1.2.3.4', 443).rule).toBe('allowOut "1.2.3.0/24" allows 1.2.3.4.');
    expect(decideAddress(open, '1.1.1.1', 53).rule).toContain("DNS goes to the sandbox's forwarder");
  });
});

describe('nameAllowed', () => {
  it.each([
    ['files.pypi.org', '*.pypi.org'],
    ['a.b.pypi.org', '*.pypi.org'],
    ['FILES.PYPI.ORG.', '*.pypi.org'],
    ['pypi.org', null],
    ['evilpypi.org', null],
    ['files.pythonhosted.org', 'files.pythonhosted.org'],
    ['x.files.pythonhosted.org', null],
  ])('%s → %s', (host, entry) => {
    expect(nameAllowed(denyAll, host)).toEqual(entry ? { entry } : null);
  });
});

describe('decideName and decideResolved', () => {
  it('refuses a name no entry allows under default deny before resolving it', () => {
    expect(decideName(denyAll, 'pypi.org', 443)).toMatchObject({ allowed: false, kind: 'default-deny' });
  });

  it('refuses an allowed name on a port domain rules do not cover', () => {
    const d = decideName(denyAll, 'files.pypi.org', 22);
    expect(d).toMatchObject({ allowed: false, kind: 'domain-port', entry: '*.pypi.org' });
    expect(d?.rule).toContain('domain rules apply to HTTP (80) and TLS (443) only');
  });

  it('judges an IP literal as the address and refuses numeric tricks', () => {
    expect(decideName(denyAll, '10.20.0.5', 5432)).toMatchObject({ allowed: true, kind: 'allow-out', entry: '10.20.0.0/16' });
    expect(decideName(denyAll, '[2001:db8::1]', 22)).toMatchObject({ allowed: true, kind: 'allow-out' });
    expect(decideName(open, '169.254.169.254', 80)).toMatchObject({ allowed: false, kind: 'always-blocked' });
    for (const trick of ['2852039166', '0251.0376.0251.0376', '0x7f.1', '0X7F.0.0.1.', '1.2.3', 'a_b.com', 'x.com/']) {
      expect(decideName(open, trick, 80)).toMatchObject({ allowed: false, kind: 'unresolved' });
    }
    expect(decideName(open, 'db', 80)).toBeNull();
    expect(decideName(denyAll, 'db', 80)).toMatchObject({ allowed: false, kind: 'default-deny' });
  });

  it('leaves names to resolution otherwise', () => {
    expect(decideName(denyAll, 'files.pypi.org', 443)).toBeNull();
    expect(decideName(open, 'example.com', 22)).toBeNull();
  });

  it.each([
    ['metadata.google.internal → metadata', denyAll, 'files.pypi.org', ['169.254.169.254'], false, 'always-blocked'],
    ['one bad address among good ones', denyAll, 'files.pypi.org', ['151.101.0.223', '127.0.0.1'], false, 'always-blocked'],
    ['mapped metadata in an answer', denyAll, 'files.pypi.org', ['::ffff:169.254.169.254'], false, 'always-blocked'],
    ['a private answer no allow covers (rebinding)', denyAll, 'files.pypi.org', ['151.101.0.223', '192.168.1.1'], false, 'private'],
    ['a private answer an allow covers', denyAll, 'files.pypi.org', ['10.20.0.5'], true, 'allow-domain'],
    ['no answer', denyAll, 'files.pypi.org', [], false, 'unresolved'],
    ['allowed by name', denyAll, 'files.pypi.org', ['151.101.0.223'], true, 'allow-domain'],
    ['default allow, every address through the CIDR rules', mixed, 'example.com', ['93.184.216.34'], true, 'default-allow'],
    ['default allow, an address denied', mixed, 'example.com', ['93.184.216.34', '9.9.9.9'], false, 'deny-out'],
  ] as const)('%s', (_, c, host, addrs, allowed, kind) => {
    expect(decideResolved(c, host, 443, [...addrs])).toMatchObject({ allowed, kind });
  });

  it('names the host and the address it resolved to', () => {
    expect(decideResolved(open, 'metadata.google.internal', 80, ['169.254.169.254']).rule).toBe(
      'metadata.google.internal resolves to 169.254.169.254, in 169.254.0.0/16, which is always blocked (link-local, including the cloud metadata address 169.254.169.254).',
    );
    expect(decideResolved(denyAll, 'files.pypi.org', 443, ['151.101.0.223']).rule).toBe('allowOut "*.pypi.org" allows files.pypi.org.');
  });
});

describe('decideDestination (the tester)', () => {
  const test = (c: CompiledPolicy, s: string, addrs?: string[]) => {
    const dest = parseDestination(s);
    if (isDestinationIssue(dest)) return dest;
    return decideDestination(c, dest, addrs);
  };

  it.each([
    ['2852039166', open, { path: 'destination' }],
    ['http://0x7f.1/', open, { path: 'destination' }],
    ['[::ffff:169.254.169.254]', open, { allowed: false, kind: 'always-blocked' }],
    ['[::ffff:169.254.169.254]:80', open, { allowed: false, kind: 'always-blocked' }],
    ['http://169.254.169.254/latest/meta-data', open, { allowed: false, kind: 'always-blocked' }],
    ['10.0.0.1:5432', open, { allowed: false, kind: 'private' }],
    ['10.20.0.1:5432', denyAll, { allowed: true, kind: 'allow-out' }],
    ['https://files.pypi.org/simple/', denyAll, { allowed: true, kind: 'allow-domain', entry: '*.pypi.org' }],
    ['pypi.org', denyAll, { allowed: false, kind: 'default-deny' }],
    ['files.pypi.org:8080', denyAll, { allowed: false, kind: 'domain-port' }],
    ['example.com', open, { allowed: true, kind: 'default-allow' }],
    ['8.8.8.8:53', open, { allowed: false, kind: 'dns' }],
    ['1.2.3.4', mixed, { allowed: true, kind: 'allow-out' }],
  ] as const)('%s', (s, c, expected) => {
    expect(test(c, s)).toMatchObject(expected);
  });

  it('says a name allowed by its rules is re-checked at connect time', () => {
    expect(test(denyAll, 'files.pypi.org')).toMatchObject({ rule: expect.stringContaining('re-checked at connect time') });
  });

  it('judges the addresses when given', () => {
    expect(test(denyAll, 'files.pypi.org', ['169.254.169.254'])).toMatchObject({ allowed: false, kind: 'always-blocked' });
    expect(test(open, 'metadata.google.internal', ['169.254.169.254'])).toMatchObject({ allowed: false, kind: 'always-blocked' });
    expect(test(open, 'internal.example.com', ['10.0.0.8'])).toMatchObject({ allowed: false, kind: 'private' });
  });
});
