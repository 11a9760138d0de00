import { describe, expect, it } from 'vitest';
import { policyWarnings, validatePolicy } from './validate';

const okPolicy = (over: Record<string, unknown> = {}) => ({ denyEgressByDefault: true, ...over });

// Accepted entries and their normalised form, for both lists where they belong.
const ACCEPTED: [string, string][] = [
  ['10.0.0.1', '10.0.0.1/32'],
  ['  8.8.8.8 ', '8.8.8.8/32'],
  ['10.1.2.3/8', '10.0.0.0/8'],
  ['192.168.1.77/24', '192.168.1.0/24'],
  ['0.0.0.0/0', '0.0.0.0/0'],
  ['1.2.3.4/0', '0.0.0.0/0'],
  ['223.255.255.254', '223.255.255.254/32'],
  ['2001:db8::1', '2001:db8::1/128'],
  ['2001:0DB8:0000::0001', '2001:db8::1/128'],
  ['2001:db8::1/32', '2001:db8::/32'],
  ['::/0', '::/0'],
  ['2001:db8::1/0', '::/0'],
  ['fc00::/7', 'fc00::/7'],
];
const ACCEPTED_DOMAINS: [string, string][] = [
  ['Example.COM.', 'example.com'],
  ['*.pypi.org', '*.pypi.org'],
  ['*.Files.PythonHosted.org.', '*.files.pythonhosted.org'],
  ['a-b.x9.com', 'a-b.x9.com'],
  ['123.example.com', '123.example.com'],
  [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
];

const LONG_NAME = `${`${'a'.repeat(63)}.`.repeat(4)}com`;
// Rejected entries (either list) and a substring of the reason.
const REJECTED: [string, string][] = [
  ['', 'an entry is empty'],
  ['   ', 'an entry is empty'],
  ['a b.com', 'whitespace is not allowed'],
  ['x.com\t1', 'whitespace is not allowed'],
  ['https://', 'a URL without a host name'],
  ['https://x.com:443@intranet', 'a domain needs at least two labels'],
  ['https://user@x.com@', 'a URL without a host name'],
  ['x.com/path', 'a path is not allowed; enter the host name (x.com)'],
  ['x.com:443/path', 'a path is not allowed; enter the host name (x.com)'],
  ['x.com:443', 'a port is not allowed'],
  ['1.2.3.4:80', 'a port is not allowed'],
  ['[2001:db8::1]:443', 'brackets and ports are not allowed'],
  ['[2001:db8::1]', 'brackets and ports are not allowed'],
  ['user@x.com', 'user information'],
  ['x.*.com', '"*" is allowed only as a leading "*."'],
  ['*', '"*" is allowed only as a leading "*."'],
  ['*x.com', '"*" is allowed only as a leading "*."'],
  ['*.*.x.com', '"*" is allowed only as a leading "*."'],
  ['x.com*', '"*" is allowed only as a leading "*."'],
  ['*.com', 'at least two labels'],
  ['localhost', 'at least two labels'],
  ['2852039166', 'a malformed IP'],
  ['0251.0376.0251.0376', 'a malformed IP'],
  ['1.2.3', 'a malformed IP'],
  ['256.1.1.1', 'a malformed IP'],
  ['010.0.0.1', 'a malformed IP'],
  ['1.2.3.4.5', 'a malformed IP'],
  ['2852039166/32', 'a malformed IP'],
  ['0x7f.0.0.1', 'the last label is a number'],
  ['example.0x1', 'the last label is a number'],
  ['10.0.0.0/33', 'the prefix length /33 is out of range for IPv4 (0–32)'],
  ['2001:db8::/129', 'out of range for IPv6 (0–128)'],
  ['10.0.0.0/x', 'the prefix length after "/" must be a number'],
  ['10.0.0.0/', 'the prefix length after "/" must be a number'],
  ['10.0.0.0/8/8', 'the prefix length after "/" must be a number'],
  ['.x.com', 'leading, trailing or double dots'],
  ['x..com', 'leading, trailing or double dots'],
  ['x.com..', 'leading, trailing or double dots'],
  [`${'a'.repeat(64)}.com`, 'is longer than 63 characters'],
  [LONG_NAME, 'a name is longer than 253 characters'],
  ['x_y.com', 'a label may hold only a–z, 0–9 and "-"'],
  ['bücher.de', 'a label may hold only a–z, 0–9 and "-"'],
  ['-x.com', 'a label cannot start or end with "-"'],
  ['x-.com', 'a label cannot start or end with "-"'],
  ['::ffff:1.2.3.4', 'IPv4-mapped IPv6 addresses'],
  ['::ffff:169.254.169.254', 'IPv4-mapped IPv6 addresses'],
  ['::ffff:0:0/96', 'IPv4-mapped IPv6 addresses'],
  ['::ffff:10.0.0.0/104', 'IPv4-mapped IPv6 addresses'],
  ['fe80::1%eth0', 'a zone id'],
  ['2001:db8:::1', 'not a valid IPv6 address'],
];

// allowOut only: entries no policy can open.
const BLOCKED: [string, string][] = [
  ['169.254.169.254', '169.254.0.0/16, which is always blocked (link-local, including the cloud metadata address 169.254.169.254)'],
  ['127.0.0.1', '127.0.0.0/8, which is always blocked (loopback)'],
  ['127.0.0.0/8', '127.0.0.0/8, which is always blocked (loopback)'],
  ['100.100.100.200', 'Alibaba Cloud metadata'],
  ['168.63.129.16', 'Azure WireServer'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'reserved, including broadcast'],
  ['0.1.2.3', '"this network"'],
  ['::1', '::1/128, which is always blocked (loopback)'],
  ['::', 'unspecified'],
  ['fe80::1', 'fe80::/10, which is always blocked (link-local)'],
  ['fd00:ec2::254', 'AWS metadata (IPv6)'],
  ['64:ff9b::a9fe:a9fe', 'NAT64'],
  ['ff02::1', 'multicast'],
];

const only = (list: 'allowOut' | 'denyOut', entry: string, extra: Record<string, unknown> = {}) =>
  validatePolicy('e2b', okPolicy({ [list]: [entry], ...extra }));

describe('validatePolicy: the entry corpus', () => {
  it.each(ACCEPTED)('accepts %j in both lists as %s', (entry, norm) => {
    for (const list of ['allowOut', 'denyOut'] as const) {
      const r = only(list, entry);
      expect(r.issues).toEqual([]);
      expect(r.policy?.[list]).toEqual([norm]);
    }
  });

  it.each(ACCEPTED_DOMAINS)('accepts the domain %j in allowOut as %s, and refuses it in denyOut', (entry, norm) => {
    expect(only('allowOut', entry).policy?.allowOut).toEqual([norm]);
    const deny = only('denyOut', entry);
    expect(deny.policy).toBeNull();
    expect(deny.issues).toEqual([{ path: 'denyOut.0', message: expect.stringContaining('denyOut takes IP addresses and CIDRs only') }]);
  });

  it.each(REJECTED)('refuses %j in both lists: %s', (entry, reason) => {
    for (const list of ['allowOut', 'denyOut'] as const) {
      const r = only(list, entry);
      expect(r.policy).toBeNull();
      expect(r.issues).toHaveLength(1);
      expect(r.issues[0].path).toBe(`${list}.0`);
      expect(r.issues[0].message).toContain(reason);
      expect(r.issues[0].message.startsWith(`${list === 'allowOut' ? 'Allow' : 'Deny'} entry 1 `)).toBe(true);
    }
  });

  it.each(BLOCKED)('refuses %j in allowOut (always blocked: %s) but takes it in denyOut', (entry, reason) => {
    const r = only('allowOut', entry);
    expect(r.policy).toBeNull();
    expect(r.issues).toEqual([{ path: 'allowOut.0', message: expect.stringContaining(reason) }]);
    expect(only('denyOut', entry).issues).toEqual([]);
  });

  it('words a refusal as "Allow entry N" with the entry and the reason (the path stays allowOut.N-1)', () => {
    const r = validatePolicy('e2b', okPolicy({ allowOut: ['a.com', 'b.com', 'x.com:443'] }));
    expect(r.issues).toEqual([
      { path: 'allowOut.2', message: 'Allow entry 3 "x.com:443": a port is not allowed; enter the host name or address alone (x.com).' },
    ]);
  });

  it.each([
    ['https://pypi.org/simple/', 'pypi.org'],
    ['HTTP://user:pw@Files.PythonHosted.org:443/x?y#z', 'files.pythonhosted.org'],
    ['https://*.example.com/', '*.example.com'],
    ['ftp://1.2.3.4/', '1.2.3.4/32'],
    ['https://[2001:db8::1]:8443/a', '2001:db8::1/128'],
  ])('takes a pasted URL %j as its host %j', (url, host) => {
    const r = only('allowOut', url);
    expect(r.issues).toEqual([]);
    expect(r.policy!.allowOut).toEqual([host]);
  });

  it('accepts a wider range around an always-blocked one, and says it stays blocked', () => {
    const r = only('allowOut', '169.0.0.0/8');
    expect(r.issues).toEqual([]);
    expect(policyWarnings(r.policy!)).toContain(
      'allowOut "169.0.0.0/8" includes 169.254.0.0/16 (link-local, including the cloud metadata address 169.254.169.254), which stays blocked.',
    );
  });

  it('refuses duplicates after normalisation, naming the earlier index', () => {
    const r = validatePolicy('e2b', okPolicy({ allowOut: ['10.0.0.1', 'x.com', '10.0.0.1/32', 'X.COM.'], denyOut: ['2001:db8::1/32', '2001:db8::/32'] }));
    expect(r.issues).toEqual([
      { path: 'allowOut.2', message: 'Allow entry 3 "10.0.0.1/32": a duplicate of Allow entry 1 (both are 10.0.0.1/32 once normalised).' },
      { path: 'allowOut.3', message: 'Allow entry 4 "X.COM.": a duplicate of Allow entry 2 (both are x.com once normalised).' },
      { path: 'denyOut.1', message: expect.stringContaining('a duplicate of Deny entry 1 (both are 2001:db8::/32') },
    ]);
  });

  it('keeps the order of the input lists', () => {
    const r = validatePolicy('docker', okPolicy({ allowOut: ['b.com', '10.9.9.9', 'a.com', '2001:db8::5'], denyOut: ['9.9.9.9', '1.1.1.1'] }));
    expect(r.policy?.allowOut).toEqual(['b.com', '10.9.9.9/32', 'a.com', '2001:db8::5/128']);
    expect(r.policy?.denyOut).toEqual(['9.9.9.9/32', '1.1.1.1/32']);
  });

  it('reports every bad entry, in input order, and returns no policy', () => {
    const r = validatePolicy('e2b', okPolicy({ allowOut: ['ok.com', 'bad_.com', 'x.com:1'], denyOut: ['x.com', '1.2.3'] }));
    expect(r.policy).toBeNull();
    expect(r.issues.map((i) => i.path)).toEqual(['allowOut.1', 'allowOut.2', 'denyOut.0', 'denyOut.1']);
  });
});

describe('validatePolicy: a domain allowlist needs deny-all', () => {
  it('refuses domains under default allow, at denyEgressByDefault', () => {
    const r = validatePolicy('e2b', { allowOut: ['10.0.0.0/8', 'api.x.com'] });
    expect(r.policy).toBeNull();
    expect(r.issues).toEqual([
      { path: 'denyEgressByDefault', message: expect.stringContaining('Allow entry 2 "api.x.com" is a domain, and a domain allowlist needs deny-all') },
    ]);
  });

  it.each([[{ denyEgressByDefault: true }], [{ denyOut: ['0.0.0.0/0'] }], [{ denyOut: ['1.2.3.4/0'] }]])('accepts domains with deny-all %j', (over) => {
    expect(validatePolicy('docker', { allowOut: ['api.x.com'], ...over }).issues).toEqual([]);
  });

  it('does not count a wide but partial deny as deny-all', () => {
    expect(validatePolicy('e2b', { allowOut: ['api.x.com'], denyOut: ['0.0.0.0/1', '128.0.0.0/1', '::/1', '8000::/1'] }).issues[0].path).toBe(
      'denyEgressByDefault',
    );
  });

  it('counts ::/0 as deny-all just like 0.0.0.0/0, and says the other family is included', () => {
    for (const all of ['0.0.0.0/0', '::/0']) {
      const r = validatePolicy('docker', { allowOut: ['api.x.com'], denyOut: [all] });
      expect(r.issues, all).toEqual([]);
      expect(policyWarnings(r.policy!).join(' '), all).toMatch(
        all === '::/0' ? /::\/0 in denyOut denies everything by default, IPv4 included/ : /IPv6 included/,
      );
    }
  });

  it('takes CIDRs without deny-all', () => {
    expect(validatePolicy('e2b', { allowOut: ['10.0.0.0/8'], denyOut: ['1.2.3.4'] }).issues).toEqual([]);
  });
});

describe('validatePolicy: structure', () => {
  it('turns zod issues into path/message pairs', () => {
    const r = validatePolicy('docker', { allowOut: ['a.com', 5], denyEgressByDefault: 'yes' });
    expect(r.policy).toBeNull();
    expect(r.issues.map((i) => i.path).sort()).toEqual(['allowOut.1', 'denyEgressByDefault']);
  });

  it('refuses unknown fields and non-objects', () => {
    expect(validatePolicy('docker', { allowOUT: [] }).issues).toHaveLength(1);
    expect(validatePolicy('docker', null).issues).toHaveLength(1);
  });

  it('warns when deny-all allows nothing, and that 0.0.0.0/0 in denyOut covers IPv6', () => {
    expect(policyWarnings(validatePolicy('docker', { denyEgressByDefault: true }).policy!)).toEqual([
      'Nothing is allowed: every outbound connection is refused, including package installs.',
    ]);
    expect(policyWarnings(validatePolicy('docker', { allowOut: ['1.1.1.1'], denyOut: ['0.0.0.0/0'] }).policy!)).toEqual([
      '0.0.0.0/0 in denyOut denies everything by default, IPv6 included.',
    ]);
    expect(policyWarnings(validatePolicy('docker', {}).policy!)).toEqual([]);
  });

  it('fills the defaults', () => {
    expect(validatePolicy('docker', {})).toEqual({
      policy: { denyEgressByDefault: false, allowOut: [], denyOut: [], cubeRules: [], e2bHostRules: [] },
      issues: [],
    });
  });
});
