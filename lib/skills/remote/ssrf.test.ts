import { describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { blockedRange, checkUrlSyntax, checkUrlTarget, hostMatches } from './ssrf';

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    return isAppError(e) ? e.code : `other: ${(e as Error).message}`;
  }
}

describe('blockedRange', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'ipv4Mapped:private'],
    ['::ffff:127.0.0.1', 'ipv4Mapped:loopback'],
    ['::ffff:169.254.169.254', 'ipv4Mapped:linkLocal'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052:linkLocal'],
    ['64:ff9b::7f00:1', 'rfc6052:loopback'],
    ['2002:a00:1::', '6to4:private'],
    // ipaddr.js reads ::a.b.c.d as IPv4-mapped; the hex form is the IPv4-compatible address.
    ['::10.0.0.1', 'ipv4Mapped:private'],
    ['::a00:1', 'ipv4Compatible:private'],
    ['not-an-ip', 'invalid'],
  ])('%s is refused (%s)', (addr, range) => {
    expect(blockedRange(addr)).toBe(range);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700::1111', '::ffff:93.184.216.34', '64:ff9b::5db8:d822'])('%s is public', (addr) => {
    expect(blockedRange(addr)).toBeNull();
  });
});

describe('hostMatches', () => {
  it('matches host, host:port, wildcards and normalised IP forms', () => {
    expect(hostMatches(['registry.example.org'], 'registry.example.org', 443)).toBe(true);
    expect(hostMatches(['registry.example.org:8443'], 'registry.example.org', 443)).toBe(false);
    expect(hostMatches(['registry.example.org:8443'], 'registry.example.org', 8443)).toBe(true);
    expect(hostMatches(['*.example.org'], 'a.b.example.org', 443)).toBe(true);
    expect(hostMatches(['*.example.org'], 'example.org', 443)).toBe(false);
    expect(hostMatches(['*.example.org'], 'evilexample.org', 443)).toBe(false);
    expect(hostMatches(['2130706433:8080'], '127.0.0.1', 8080)).toBe(true);
    expect(hostMatches(['[::1]:9000'], '::1', 9000)).toBe(true);
    expect(hostMatches(['REGISTRY.Example.org'], 'registry.example.org', 80)).toBe(true);
    expect(hostMatches([], 'x', 1)).toBe(false);
  });
});

describe('checkUrlSyntax', () => {
  it('normalises decimal, octal and hex IPv4 forms before judging them', () => {
    for (const u of ['http://2130706433/', 'http://0x7f.1/', 'http://017700000001/', 'http://0x7f000001/']) {
      expect(checkUrlSyntax(u, { allowedHosts: [] }).host).toBe('127.0.0.1');
    }
  });

  it('refuses other schemes, credentials and hosts outside the allowlist', () => {
    expect(() => checkUrlSyntax('file:///etc/passwd', { allowedHosts: [] })).toThrow(/only http and https/);
    expect(() => checkUrlSyntax('ftp://example.org/x', { allowedHosts: [] })).toThrow(/only http and https/);
    expect(() => checkUrlSyntax('https://user:pw@example.org/x', { allowedHosts: [] })).toThrow(/credentials/);
    expect(() => checkUrlSyntax('not a url', { allowedHosts: [] })).toThrow(/not a valid URL/);
    expect(() => checkUrlSyntax('https://evil.example.net/x', { allowedHosts: [], hostAllowlist: ['registry.example.org'] })).toThrow(
      /not in the allowed host list/,
    );
    expect(checkUrlSyntax('https://registry.example.org/x', { allowedHosts: [], hostAllowlist: ['registry.example.org'] }).port).toBe(443);
  });
});

describe('checkUrlTarget', () => {
  it('refuses private and loopback literals without resolving anything', async () => {
    let lookups = 0;
    const resolver = async () => {
      lookups++;
      return [{ address: '93.184.216.34', family: 4 }];
    };
    for (const u of [
      'http://10.0.0.1/',
      'http://192.168.1.1/',
      'http://172.16.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://2130706433/',
      'http://0x7f000001/',
    ]) {
      expect(await codeOf(checkUrlTarget(u, { allowedHosts: [] }, resolver)), u).toBe('ssrf_blocked');
    }
    expect(lookups).toBe(0);
  });

  it('resolves names and refuses when any answer is private', async () => {
    expect(await codeOf(checkUrlTarget('http://localhost:9/', { allowedHosts: [] }))).toBe('ssrf_blocked');
    const mixed = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    const e = await checkUrlTarget('https://skills.test/x', { allowedHosts: [] }, mixed).catch((err) => err);
    expect(e.code).toBe('ssrf_blocked');
    expect(e.details).toMatchObject({ host: 'skills.test', address: '10.1.2.3', range: 'private' });
  });

  it('lets an admin-allowed host (and port) through with the checked address', async () => {
    const t = await checkUrlTarget('http://localhost:8123/a', { allowedHosts: ['localhost:8123'] });
    expect(t.adminAllowed).toBe(true);
    expect(['127.0.0.1', '::1']).toContain(t.address);
    expect(await codeOf(checkUrlTarget('http://localhost:8124/a', { allowedHosts: ['localhost:8123'] }))).toBe('ssrf_blocked');
    const lit = await checkUrlTarget('http://[::1]:7000/', { allowedHosts: ['[::1]'] });
    expect(lit).toMatchObject({ host: '::1', address: '::1', family: 6, port: 7000 });
  });

  it('reports a name that does not resolve as fetch_failed', async () => {
    const none = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    };
    expect(await codeOf(checkUrlTarget('https://nowhere.invalid/', { allowedHosts: [] }, none))).toBe('fetch_failed');
  });
});
