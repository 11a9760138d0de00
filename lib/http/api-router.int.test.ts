// The REST API served from its contracts by the router server.ts puts ahead of Next: real services,
// a real node:http server and socket, the same route wrapper the route files export.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '@/db/schema';
import { openAgentStreams } from '@/lib/agents/events';
import { ops } from '@/lib/api/operations';
import { hashToken } from '@/lib/auth/tokens';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { sessionCookieFor } from '@/test/helpers/session';
import { apiRouter } from './api-router';
import { CLIENT_IP_HEADER } from './authenticate';

let ts: TestServices;
let server: http.Server;
let base: string;
let token: string;
let userId: string;
const FALLTHROUGH = 'left to the page framework';

beforeAll(async () => {
  ts = await startTestServices({ worker: false });
  setServices(Promise.resolve(ts.services));
  const u = await apiUser(ts.services, {
    email: 'router@example.test',
    role: 'admin',
    tokenName: 'router',
    permissions: ['agents.read', 'agents.write', 'skills.write'],
  });
  token = u.token;
  userId = u.actor.userId!;
  const api = apiRouter(Object.values(ops));
  server = http.createServer((req, res) => {
    req.headers[CLIENT_IP_HEADER] = '127.0.0.1';
    if (!api.serve(req, res)) res.writeHead(404).end(FALLTHROUGH);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const created = await fetch(`${base}/api/v1/agents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'router-agent', name: 'Router agent' }),
  });
  expect(created.status).toBe(201);
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await ts?.stop();
});

const auth = () => ({ authorization: `Bearer ${token}` });

describe('the API router', () => {
  it('answers the gateway poll with its ETag and 304 on a match', async () => {
    const first = await fetch(`${base}/api/v1/agents/router-agent/skills`, { headers: auth() });
    expect(first.status).toBe(200);
    expect((await first.json()) as object).toHaveProperty('skills');
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${base}/api/v1/agents/router-agent/skills`, { headers: { ...auth(), 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves an agent change on the next poll, though the poll keeps the agent for a moment', async () => {
    const url = `${base}/api/v1/agents/router-agent/skills`;
    const before = await fetch(url, { headers: auth() });
    const etag = before.headers.get('etag')!;
    expect((await fetch(url, { headers: { ...auth(), 'if-none-match': etag } })).status).toBe(304);
    const agent = (await (await fetch(`${base}/api/v1/agents/router-agent`, { headers: auth() })).json()) as { revision: number };
    const patched = await fetch(`${base}/api/v1/agents/router-agent`, {
      method: 'PATCH',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ revision: agent.revision, skills: [] }),
    });
    expect(patched.status).toBe(200);
    const after = await fetch(url, { headers: { ...auth(), 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(((await after.json()) as { skills: unknown[] }).skills).toEqual([]);
  });

  it('keeps the error rules: no credentials 401 with the Bearer challenge, an unknown agent 404', async () => {
    const anon = await fetch(`${base}/api/v1/agents/router-agent/skills`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe('Bearer realm="skilldock"');
    expect(((await anon.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
    const missing = await fetch(`${base}/api/v1/agents/no-such-agent/skills`, { headers: auth() });
    expect(missing.status).toBe(404);
  });

  it('decodes path parameters; refuses malformed percent-encoding with 400', async () => {
    const encoded = await fetch(`${base}/api/v1/agents/router%2Dagent/skills`, { headers: auth() });
    expect(encoded.status).toBe(200);
    const bad = await fetch(`${base}/api/v1/agents/%E0%A4%A/skills`, { headers: auth() });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('validation');
  });

  it('answers 405 for a method the route lacks, OPTIONS with Allow, HEAD as GET without a body; leaves unknown paths to Next', async () => {
    const del = await fetch(`${base}/api/v1/jobs`, { method: 'DELETE', headers: auth() });
    expect(del.status).toBe(405);
    const opt = await fetch(`${base}/api/v1/jobs`, { method: 'OPTIONS' });
    expect(opt.status).toBe(204);
    expect(opt.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    const head = await fetch(`${base}/api/v1/agents/router-agent/skills`, { method: 'HEAD', headers: auth() });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBeTruthy();
    expect(await head.text()).toBe('');
    for (const p of ['/api/v1/nope', '/api/v1/jobs/', '/', '/skills'])
      expect(await (await fetch(`${base}${p}`, { redirect: 'manual' })).text(), p).toBe(FALLTHROUGH);
  });

  it('streams an upload body to the route (chunked, no length declared) and answers its size and hash', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const out = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${base}/api/v1/skills/uploads`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/octet-stream', 'x-filename': 'big.zip' },
      });
      req.once('error', reject);
      req.once('response', (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.once('end', () => resolve({ status: res.statusCode!, body }));
      });
      for (let at = 0; at < bytes.length; at += 64 * 1024) req.write(bytes.subarray(at, at + 64 * 1024));
      req.end();
    });
    expect(out.status).toBe(201);
    const rec = JSON.parse(out.body) as { size: number; sha256: string; filename: string };
    expect(rec.size).toBe(bytes.length);
    expect(rec.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(rec.filename).toBe('big.zip');
  });

  it('streams agent events and ends the stream when the client goes away', async () => {
    const owner = `user:${userId}`;
    const ac = new AbortController();
    const res = await fetch(`${base}/api/v1/agents/router-agent/events`, { headers: auth(), signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('event: version')) seen += new TextDecoder().decode((await reader.read()).value);
    expect(seen).toContain('"agentId":"router-agent"');
    expect(openAgentStreams(ts.services.agents.watcher!, owner)).toBe(1);
    ac.abort();
    await waitFor(async () => openAgentStreams(ts.services.agents.watcher!, owner) === 0, 'the stream to be released after the client left', 10_000);
  });

  it('a revoked token is refused on the next request, though it was just served from the token cache', async () => {
    const extra = await apiUser(ts.services, { email: 'revoke@example.test', role: 'viewer', tokenName: 'revoke-me', permissions: ['agents.read'] });
    const poll = () => fetch(`${base}/api/v1/agents/router-agent/skills`, { headers: { authorization: `Bearer ${extra.token}` } });
    expect((await poll()).status).toBe(200);
    expect((await poll()).status).toBe(200);
    const [row] = await ts.services.database.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashToken(extra.token)));
    const cookie = await sessionCookieFor(ts.services.authSecret, extra.actor.userId!);
    const revoked = await fetch(`${base}/api/v1/tokens/${row.id}`, { method: 'DELETE', headers: { cookie, origin: base } });
    expect(revoked.status).toBe(200);
    const after = await poll();
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { message: string } }).error.message).toMatch(/revoked/);
  });
});
