// The GitHub client against a loopback server speaking the REST API's shapes and headers: ETags and
// 304s, Link pagination, rate limits (retry-after, reset, secondary), retries, redirects and tokens.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CachedResponse, type EtagStore, GithubClient, nextLink, type RateLimit, resolveGithubToken, tokenIdentity } from './client';
import { checkHop } from './http';
import { type GithubRelease, latestRelease, listReleases, parseRepo, releaseByTag } from './releases';

const release = (n: number, extra: Partial<GithubRelease> = {}): GithubRelease => ({
  id: 1000 + n,
  tag_name: `v1.${n}.0`,
  name: `v1.${n}.0`,
  draft: false,
  prerelease: false,
  created_at: `2026-0${1 + (n % 9)}-01T00:00:00Z`,
  published_at: `2026-0${1 + (n % 9)}-02T00:00:00Z`,
  assets: [
    {
      id: 5000 + n,
      name: `tool_1.${n}.0_linux_amd64.tar.gz`,
      size: 1234,
      state: 'uploaded',
      content_type: 'application/gzip',
      browser_download_url: `https://github.com/o/tool/releases/download/v1.${n}.0/tool_1.${n}.0_linux_amd64.tar.gz`,
      url: `https://api.github.com/repos/o/tool/releases/assets/${5000 + n}`,
      digest: `sha256:${'ab'.repeat(32)}`,
    },
    { id: 6000 + n, name: 'checksums.txt', size: 99, state: 'starter', browser_download_url: 'x', url: 'y', digest: null },
  ],
  ...extra,
});

interface Seen {
  path: string;
  auth?: string;
  ifNoneMatch?: string;
  host?: string;
}
let server: http.Server;
let base: string;
const seen: Seen[] = [];
let script: (req: http.IncomingMessage, res: http.ServerResponse) => boolean = () => false;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({
      path: req.url ?? '',
      auth: req.headers.authorization,
      ifNoneMatch: req.headers['if-none-match'] as string | undefined,
      host: req.headers.host,
    });
    if (script(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://x');
    const headers = {
      'content-type': 'application/json',
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-used': '1',
      'x-ratelimit-reset': '1900000000',
      'x-ratelimit-resource': 'core',
    };
    if (url.pathname === '/repos/o/tool/releases/latest') {
      const etag = '"latest-v1.9.0"';
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { ...headers, etag }).end();
      return void res.writeHead(200, { ...headers, etag }).end(JSON.stringify(release(9)));
    }
    if (url.pathname === '/repos/o/tool/releases/tags/v1.2.0') return void res.writeHead(200, headers).end(JSON.stringify(release(2)));
    // The real API's next links point at /repositories/{id}/…: the client must follow them as given.
    if (url.pathname === '/repos/o/tool/releases' || url.pathname === '/repositories/42/releases') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const all = [release(9), release(8, { draft: true }), release(7, { prerelease: true }), ...[6, 5, 4, 3, 2, 1].map((n) => release(n))];
      const slice = all.slice((page - 1) * 3, page * 3);
      const link =
        page * 3 < all.length
          ? `<${base}/repositories/42/releases?per_page=3&page=${page + 1}>; rel="next", <${base}/repositories/42/releases?page=3>; rel="last"`
          : '';
      return void res.writeHead(200, { ...headers, ...(link ? { link } : {}) }).end(JSON.stringify(slice));
    }
    res.writeHead(404, headers).end(JSON.stringify({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen.length = 0;
  script = () => false;
});

function memoryStore(): EtagStore & { map: Map<string, CachedResponse>; touched: number } {
  const map = new Map<string, CachedResponse>();
  const store = {
    map,
    touched: 0,
    get: async (u: string, t: string) => map.get(`${t} ${u}`) ?? null,
    put: async (u: string, t: string, e: CachedResponse) => void map.set(`${t} ${u}`, e),
    touch: async () => void store.touched++,
  };
  return store;
}
const sleeps: number[] = [];
const client = (o: Partial<ConstructorParameters<typeof GithubClient>[0]> = {}) =>
  new GithubClient({ apiBase: base, userAgent: 'skilldock-test', sleep: async (ms) => void sleeps.push(ms), ...o });

describe('GitHub client', () => {
  it('sends conditional requests and reuses the stored body on 304, per token identity', async () => {
    const etags = memoryStore();
    const limits: RateLimit[] = [];
    const c = client({ etags, rateLimits: { record: async (_t, r) => void limits.push(r) } });
    const first = await latestRelease(c, 'o/tool');
    expect(first.notModified).toBe(false);
    expect(first.release.tag_name).toBe('v1.9.0');
    expect(first.release.assets.map((a) => a.name)).toEqual(['tool_1.9.0_linux_amd64.tar.gz']);
    const second = await latestRelease(c, 'o/tool');
    expect(second).toEqual({ release: first.release, notModified: true });
    expect(seen.map((s) => s.ifNoneMatch)).toEqual([undefined, '"latest-v1.9.0"']);
    expect(etags.touched).toBe(1);
    expect(limits.at(-1)).toEqual({ resource: 'core', limit: 60, remaining: 59, used: 1, resetAt: new Date(1_900_000_000_000) });
    // Another token never sees the first one's cache.
    await latestRelease(client({ etags, token: 'ghp_other' }), 'o/tool');
    expect(seen.at(-1)?.ifNoneMatch).toBeUndefined();
    expect(tokenIdentity('ghp_other')).not.toBe(tokenIdentity(null));
    expect(JSON.stringify([...etags.map.keys()])).not.toContain('ghp_other');
  });

  it('pages by the Link header, drops drafts and stops at the limit', async () => {
    const { releases } = await listReleases(client(), 'o/tool', { limit: 5 });
    expect(releases.map((r) => r.tag_name)).toEqual(['v1.9.0', 'v1.7.0', 'v1.6.0', 'v1.5.0', 'v1.4.0']);
    expect(seen.map((s) => s.path)).toEqual(['/repos/o/tool/releases?per_page=5', '/repositories/42/releases?per_page=3&page=2']);
    expect(nextLink('<https://api.github.com/x?page=2>; rel="next", <https://api.github.com/x?page=9>; rel="last"')).toBe('https://api.github.com/x?page=2');
  });

  it('finds a release by its exact tag; a missing tag is release_not_found, never a fuzzy match', async () => {
    expect((await releaseByTag(client(), 'o/tool', 'v1.2.0')).release.id).toBe(1002);
    await expect(releaseByTag(client(), 'o/tool', 'v1.2')).rejects.toMatchObject({ code: 'release_not_found', status: 404 });
    expect(() => parseRepo('-bad/repo')).toThrow(/not an owner\/repository/);
    expect(() => parseRepo('o/.hidden')).toThrow();
    expect(() => parseRepo('o/r/extra')).toThrow();
  });

  it('waits for retry-after, then for the reset time; fails when the wait is too long', async () => {
    sleeps.length = 0;
    let calls = 0;
    script = (req, res) => {
      if (!req.url?.endsWith('/releases/latest') || calls++ > 0) return false;
      res.writeHead(403, { 'retry-after': '7', 'x-ratelimit-remaining': '10', 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '1900000000' }).end('{}');
      return true;
    };
    expect((await latestRelease(client(), 'o/tool')).release.tag_name).toBe('v1.9.0');
    expect(sleeps).toEqual([7000]);

    sleeps.length = 0;
    calls = 0;
    const now = 1_900_000_000_000 - 20_000;
    script = (_req, res) => {
      if (calls++ > 0) return false;
      res.writeHead(429, { 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '60', 'x-ratelimit-reset': '1900000000' }).end('{}');
      return true;
    };
    await latestRelease(client({ now: () => now }), 'o/tool');
    expect(sleeps).toEqual([20_000]);

    calls = 0;
    await expect(latestRelease(client({ now: () => now - 3_600_000 }), 'o/tool')).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
      details: { kind: 'reset', retryAfterSeconds: 3620 },
    });
  });

  it('treats a 403 with no rate-limit headers as a refusal, and retries 5xx with backoff', async () => {
    script = (_req, res) => {
      res.writeHead(403).end('{}');
      return true;
    };
    await expect(latestRelease(client(), 'o/tool')).rejects.toMatchObject({ code: 'not_allowed' });
    sleeps.length = 0;
    let calls = 0;
    script = (_req, res) => {
      if (calls++ >= 2) return false;
      res.writeHead(502).end('bad gateway');
      return true;
    };
    expect((await latestRelease(client(), 'o/tool')).release.tag_name).toBe('v1.9.0');
    expect(sleeps).toEqual([500, 1000]);
    script = (_req, res) => {
      res.writeHead(500).end();
      return true;
    };
    await expect(latestRelease(client(), 'o/tool')).rejects.toMatchObject({ code: 'upstream_error', status: 502 });
  });

  it('sends the token to the API host only and strips it on a redirect to another host', async () => {
    const port = new URL(base).port;
    script = (req, res) => {
      if (req.headers.host?.startsWith('127.0.0.1') && req.url?.endsWith('/releases/latest')) {
        res.writeHead(302, { location: `http://localhost:${port}/repos/o/tool/releases/latest` }).end();
        return true;
      }
      return false;
    };
    // localhost is another host than the API base: the redirect is followed without the token...
    expect((await latestRelease(client({ token: 'ghp_secret', extraHosts: ['localhost'] }), 'o/tool')).release.tag_name).toBe('v1.9.0');
    expect(seen.map((s) => [s.host?.split(':')[0], s.auth])).toEqual([
      ['127.0.0.1', 'Bearer ghp_secret'],
      ['localhost', undefined],
    ]);
    // ...and a host that is not allowed is never contacted.
    seen.length = 0;
    await expect(latestRelease(client({ token: 'ghp_secret' }), 'o/tool')).rejects.toMatchObject({ code: 'insecure_redirect' });
    expect(seen).toHaveLength(1);
    // ...and the hop checks themselves: HTTPS to GitHub's CDN gets no token, unknown hosts and IPs are refused.
    const policy = { apiBase: new URL('https://api.github.com/') };
    expect(() => checkHop(new URL('https://objects.githubusercontent.com/x'), policy)).not.toThrow();
    expect(() => checkHop(new URL('https://evil.example/x'), policy)).toThrow(/not GitHub/);
    expect(() => checkHop(new URL('https://169.254.169.254/latest'), { ...policy, extraHosts: ['169.254.169.254'] })).toThrow(/IP address/);
    expect(() => checkHop(new URL('http://github.com/x'), policy)).toThrow(/not HTTPS/);
    // Plain HTTP only when the admin configured a plain-HTTP API base (a lab mirror), and only to allowed hosts.
    expect(() => checkHop(new URL('http://localhost:9/x'), { apiBase: new URL('http://127.0.0.1:8/'), extraHosts: ['localhost'] })).not.toThrow();
    expect(() => checkHop(new URL('http://evil.example/x'), { apiBase: new URL('http://127.0.0.1:8/') })).toThrow(/not GitHub/);
  });

  it('follows at most 5 redirects', async () => {
    script = (_req, res) => {
      res.writeHead(302, { location: `${base}/loop${seen.length}` }).end();
      return true;
    };
    await expect(latestRelease(client(), 'o/tool')).rejects.toMatchObject({
      code: 'insecure_redirect',
      message: expect.stringContaining('More than 5 redirects'),
    });
    expect(seen).toHaveLength(6);
  });

  it('takes the token from the setting, then GITHUB_TOKEN, then GH_TOKEN', () => {
    expect(resolveGithubToken('s', { GITHUB_TOKEN: 'g', GH_TOKEN: 'h' })).toEqual({ token: 's', source: 'setting' });
    expect(resolveGithubToken('', { GITHUB_TOKEN: 'g', GH_TOKEN: 'h' })).toEqual({ token: 'g', source: 'GITHUB_TOKEN' });
    expect(resolveGithubToken(null, { GH_TOKEN: 'h' })).toEqual({ token: 'h', source: 'GH_TOKEN' });
    expect(resolveGithubToken(null, {})).toEqual({ token: null, source: 'none' });
  });
});
