import { describe, expect, it } from 'vitest';
import { validatePolicy } from './validate';

const rule = (over: Record<string, unknown> = {}) => ({ name: 'api', host: 'api.x.com', ...over });
const cube = (rules: unknown[], over: Record<string, unknown> = {}) => validatePolicy('cube', { cubeRules: rules, ...over });
const e2b = (rules: unknown[], allowOut: string[] = ['*.x.com', 'y.com']) =>
  validatePolicy('e2b', { denyEgressByDefault: true, allowOut, e2bHostRules: rules });

describe('validatePolicy: per-backend support', () => {
  it('takes allow and deny lists on Docker', () => {
    expect(validatePolicy('docker', { denyEgressByDefault: true, allowOut: ['pypi.org', '10.0.0.0/8'], denyOut: ['1.2.3.4'] }).issues).toEqual([]);
  });

  it.each(['docker', 'e2b'] as const)('refuses cubeRules on %s, naming Cube', (backend) => {
    const r = validatePolicy(backend, { cubeRules: [rule()] });
    expect(r.policy).toBeNull();
    expect(r.issues).toEqual([{ path: 'cubeRules', message: expect.stringContaining('only Cube configs have them') }]);
  });

  it.each(['docker', 'cube'] as const)('refuses e2bHostRules on %s, naming E2B', (backend) => {
    const r = validatePolicy(backend, { denyEgressByDefault: true, allowOut: ['x.com'], e2bHostRules: [{ host: 'x.com' }] });
    expect(r.issues.find((i) => i.path === 'e2bHostRules')?.message).toContain('only E2B configs have them');
  });

  it('refuses domains on Cube, which enforces CIDRs only', () => {
    const r = validatePolicy('cube', { denyEgressByDefault: true, allowOut: ['10.0.0.0/8', '*.pypi.org'] });
    expect(r.issues).toEqual([
      { path: 'allowOut.1', message: 'Allow entry 2 "*.pypi.org": Cube enforces CIDRs only; a domain cannot be allowed on a Cube config.' },
    ]);
    expect(validatePolicy('cube', { allowOut: ['10.0.0.0/8'], denyOut: ['0.0.0.0/0'] }).issues).toEqual([]);
  });
});

describe('validatePolicy: cubeRules', () => {
  it('accepts and normalises a full rule', () => {
    const r = cube([
      rule({
        host: 'API.x.com:8443',
        sni: 'Api.X.com.',
        scheme: 'https',
        methods: ['get', 'POST'],
        path: '/v1',
        audit: 'metadata',
        inject: [{ header: 'Authorization', secret: 's', format: 'Bearer {secret}' }],
      }),
    ]);
    expect(r.issues).toEqual([]);
    expect(r.policy?.cubeRules[0]).toMatchObject({
      name: 'api',
      host: 'api.x.com:8443',
      sni: 'api.x.com',
      methods: ['GET', 'POST'],
      deny: false,
      audit: 'metadata',
    });
  });

  it.each([
    [[rule({ name: ' ' })], 'cubeRules.0.name', 'a rule needs a name'],
    [[rule(), rule({ host: 'b.x.com' })], 'cubeRules.1.name', 'already used by cubeRules[0]'],
    [[rule({ host: '', sni: '' })], 'cubeRules.0.host', 'a rule needs a host or an SNI name'],
    [[rule({ host: 'x.com:99999' })], 'cubeRules.0.host', 'the port must be a number from 1 to 65535'],
    [[rule({ host: 'bad_host.com' })], 'cubeRules.0.host', 'a label may hold only'],
    [[rule({ host: '', sni: '1.2.3.4' })], 'cubeRules.0.sni', 'must be a valid domain'],
    [[rule({ sni: 'x' })], 'cubeRules.0.sni', 'must be a valid domain'],
    [[rule({ scheme: 'ftp' })], 'cubeRules.0.scheme', 'is not one of "", "http", "https"'],
    [[rule({ audit: 'all' })], 'cubeRules.0.audit', 'is not one of "", "none", "metadata", "full"'],
    [[rule({ methods: ['GET', 'FETCH'] })], 'cubeRules.0.methods.1', 'is not a standard HTTP method'],
    [[rule({ methods: ['GET', 'get'] })], 'cubeRules.0.methods.1', 'GET is listed twice'],
    [[rule({ path: 'v1' })], 'cubeRules.0.path', 'must start with "/"'],
    [[rule({ inject: [{ header: '', secret: 'x' }] })], 'cubeRules.0.inject.0.header', 'needs a header name'],
    [[rule({ inject: [{ header: 'Bad Header', secret: 'x' }] })], 'cubeRules.0.inject.0.header', 'not a valid HTTP header name'],
    [
      [
        rule({
          inject: [
            { header: 'X-Key', secret: 'a' },
            { header: 'x-key', secret: 'b' },
          ],
        }),
      ],
      'cubeRules.0.inject.1.header',
      'already injected by inject[0]',
    ],
    [[rule({ deny: true, inject: [{ header: 'X-Key', secret: 'a' }] })], 'cubeRules.0.inject.0.secret', 'a deny rule cannot carry a secret'],
  ])('refuses %j at %s', (rules, path, reason) => {
    const r = cube(rules);
    expect(r.policy).toBeNull();
    expect(r.issues).toEqual([{ path, message: expect.stringContaining(reason) }]);
  });

  it('takes a deny rule without a secret, and an SNI-only rule', () => {
    expect(cube([rule({ deny: true, inject: [{ header: 'X-Trace' }] }), { name: 'tls', sni: '*.x.com' }]).issues).toEqual([]);
  });
});

describe('validatePolicy: e2bHostRules', () => {
  it('accepts hosts allowOut covers, exactly or by wildcard', () => {
    const r = e2b([{ host: 'API.x.com', headers: { Authorization: 'Bearer s' } }, { host: 'y.com' }, { host: '*.a.x.com' }]);
    expect(r.issues).toEqual([]);
    expect(r.policy?.e2bHostRules.map((h) => h.host)).toEqual(['api.x.com', 'y.com', '*.a.x.com']);
  });

  it.each([
    [[{ host: 'x.com' }], 'e2bHostRules.0.host', 'is not allowed by allowOut'],
    [[{ host: 'z.y.com' }], 'e2bHostRules.0.host', 'is not allowed by allowOut'],
    [[{ host: '10.0.0.1' }], 'e2bHostRules.0.host', 'must be a domain'],
    [[{ host: `${'a'.repeat(63)}.${'b'.repeat(63)}.x.com` }], 'e2bHostRules.0.host', 'longer than 128 characters'],
    [[{ host: 'y.com' }, { host: 'Y.com' }], 'e2bHostRules.1.host', 'already has e2bHostRules[0]'],
    [[{ host: 'y.com', headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`h${i}`, 'v'])) }], 'e2bHostRules.0.headers', 'at most 20 headers'],
    [[{ host: 'y.com', headers: { [`x${'a'.repeat(64)}`]: 'v' } }], expect.stringMatching(/^e2bHostRules\.0\.headers\./), 'longer than 64 characters'],
    [[{ host: 'y.com', headers: { 'X-Key': 'v'.repeat(2049) } }], 'e2bHostRules.0.headers.X-Key', 'longer than 2048 characters'],
    [[{ host: 'y.com', headers: { 'X Key': 'v' } }], 'e2bHostRules.0.headers.X Key', 'not a valid HTTP header name'],
  ])('refuses %j at %s', (rules, path, reason) => {
    const r = e2b(rules);
    expect(r.policy).toBeNull();
    expect(r.issues).toEqual([{ path, message: expect.stringContaining(reason) }]);
  });

  it('takes at most 10 rules', () => {
    const hosts = Array.from({ length: 11 }, (_, i) => ({ host: `h${i}.x.com` }));
    expect(e2b(hosts.slice(0, 10)).issues).toEqual([]);
    expect(e2b(hosts).issues).toEqual([{ path: 'e2bHostRules', message: 'At most 10 e2bHostRules (there are 11).' }]);
  });
});
