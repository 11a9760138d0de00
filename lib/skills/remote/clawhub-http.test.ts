import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClawhubClient } from './clawhub';
import { parseAmbiguousOwners, registryError, retryAfterSeconds } from './clawhub-http';
import { formatSkillRef, parseSkillRef } from './clawhub-ref';

describe('parseSkillRef', () => {
  it('parses the reference forms', () => {
    expect(parseSkillRef('notion')).toEqual({ slug: 'notion' });
    expect(parseSkillRef('Notion@1.2.3')).toEqual({ slug: 'notion', version: '1.2.3' });
    expect(parseSkillRef('@openclaw/notion')).toEqual({ slug: 'notion', ownerHandle: 'openclaw' });
    expect(parseSkillRef('@open_claw-2/notion@1.2.3-beta.1')).toEqual({ slug: 'notion', ownerHandle: 'open_claw-2', version: '1.2.3-beta.1' });
    expect(formatSkillRef(parseSkillRef('@a/b@1.0.0'))).toBe('@a/b@1.0.0');
    for (const bad of ['-x', 'x-', 'a_b', '@/x', '@a/x@', '@a/x@1', 'x@1.0.0@2.0.0', '@a'.padEnd(50, 'a') + '/x']) {
      expect(() => parseSkillRef(bad), bad).toThrow();
    }
  });
});

describe('registry answers', () => {
  const h = (init: Record<string, string> = {}) => new Headers(init);
  it('reads owners from JSON and text ambiguous bodies', () => {
    expect(
      parseAmbiguousOwners(
        JSON.stringify({ code: 'AMBIGUOUS_SKILL_SLUG', matches: [{ ownerHandle: 'alice' }, { ownerHandle: 'bob' }, { ownerHandle: 'alice' }] }),
      ),
    ).toEqual(['alice', 'bob']);
    expect(parseAmbiguousOwners(JSON.stringify({ owners: ['@carol', { handle: 'dave' }, 'not valid!'] }))).toEqual(['carol', 'dave']);
    expect(parseAmbiguousOwners('Ambiguous skill slug "cal": @alice/cal, @bob/cal. Pass ownerHandle.')).toEqual(['alice', 'bob']);
    expect(parseAmbiguousOwners('{"broken json @eve/cal')).toEqual(['eve']);
    expect(parseAmbiguousOwners('AMBIGUOUS_SKILL_SLUG')).toEqual([]);
  });

  it('maps statuses to error codes', () => {
    expect(registryError(503, 'Service Unavailable', h(), { what: 'x' }).code).toBe('registry_error');
    expect(registryError(401, 'Unauthorized', h(), { what: 'x' }).hint).toMatch(/token/);
    expect(registryError(409, 'Slug taken', h(), { what: 'x' }).code).toBe('registry_error');
    expect(registryError(409, 'AMBIGUOUS_SKILL_SLUG', h(), { what: 'x', slug: 'cal' }).code).toBe('ambiguous_slug');
    expect(registryError(403, 'Blocked: malware', h(), { what: 'x' }).code).toBe('registry_blocked');
    expect(registryError(400, 'Invalid hash', h(), { what: 'x' }).code).toBe('validation');
    expect(registryError(429, '', h({ 'ratelimit-reset': '9' }), { what: 'x' }).details).toMatchObject({ retryAfterSeconds: 9 });
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds(h({ 'retry-after': '120' }), now)).toBe(120);
    expect(retryAfterSeconds(h({ 'retry-after': 'Thu, 01 Jan 2026 00:01:30 GMT' }), now)).toBe(90);
    expect(retryAfterSeconds(h(), now)).toBeUndefined();
  });
});

describe('client transport', () => {
  const seen: { url: string; auth?: string }[] = [];
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', auth: req.headers.authorization });
      if (req.url?.startsWith('/api/v1/search')) {
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('Service Unavailable');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('not json');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends the token, maps 5xx and refuses non-JSON answers', async () => {
    const client = createClawhubClient({ baseUrl: base, token: 'clh_test' });
    await expect(client.search('x')).rejects.toMatchObject({ code: 'registry_error', details: { status: 503, body: 'Service Unavailable' } });
    await expect(client.getSkill('x')).rejects.toMatchObject({ code: 'registry_error', message: /not JSON/ });
    expect(seen.map((s) => s.auth)).toEqual(['Bearer clh_test', 'Bearer clh_test']);
  });

  it('reports an unreachable registry as registry_error', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await expect(createClawhubClient({ baseUrl: `http://127.0.0.1:${port}` }).search('x')).rejects.toMatchObject({ code: 'registry_error' });
  });
});
