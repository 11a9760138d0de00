// The REST API's edge on the production server over PostgreSQL: authentication on every route,
// permissions, bad input leaving nothing behind, API tokens, cross-site writes, socket upgrades.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { api } from '@/lib/api/contracts';
import { type Permission, ROLE_PERMISSIONS, ROLES, type Role } from '@/lib/auth/permissions';
import { freshPostgresDatabase, type TestDatabase } from '@/test/helpers/db';
import { concrete, routeFiles } from './helpers/routes';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { Client, seedUsers } from './helpers/session';

let server: RunningServer;
let pgdb: TestDatabase;
let sql: postgres.Sql;
let users: Record<Role, Client>;

beforeAll(async () => {
  await ensureBuilt();
  pgdb = await freshPostgresDatabase(process.env.DATABASE_URL_TEST);
  server = await startServer({ env: { DATABASE_URL: pgdb.url! } });
  sql = postgres(pgdb.url!, { max: 1, onnotice: () => {} });
  users = await seedUsers(server);
});

afterAll(async () => {
  await server?.stop();
  await sql?.end();
  await pgdb?.cleanup();
});

const counts = async () => {
  const [r] =
    await sql`select (select count(*) from users)::int as users, (select count(*) from api_tokens)::int as tokens, (select count(*) from jobs)::int as jobs, (select count(*) from audit_log)::int as audit`;
  return r;
};

describe('every /api/v1 route', () => {
  const files = routeFiles();

  it('is found on disk and bound to a contract through the edge wrapper', () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
    const contractKeys = new Set(Object.values(api).map((c) => `${c.method} ${c.path}`));
    for (const f of files) {
      for (const m of f.methods) {
        const name = f.contracts[m];
        expect(name, `${m} ${f.pattern} must be "export const ${m} = route(ops.<name>)"`).toBeTruthy();
        const c = api[name as keyof typeof api];
        expect(`${c.method} ${c.path}`, f.file).toBe(`${m} ${f.pattern}`);
        expect(contractKeys.has(`${m} ${f.pattern}`)).toBe(true);
        expect(c.permission, `${m} ${f.pattern} needs a permission`).toBeTruthy();
      }
    }
  });

  it('answers 401 without credentials, and with a bad token', async () => {
    for (const f of files) {
      for (const m of f.methods) {
        for (const headers of [{}, { authorization: 'Bearer sdk_' + 'x'.repeat(43) }, { authorization: 'Basic YTpi' }] as Record<string, string>[]) {
          const r = await fetch(server.base + concrete(f.pattern), {
            method: m,
            headers: { ...headers, 'content-type': 'application/json' },
            body: m === 'GET' ? undefined : '{}',
          });
          expect(r.status, `${m} ${f.pattern} ${JSON.stringify(headers)}`).toBe(401);
          expect((await r.json()).error.code).toBe('unauthenticated');
        }
      }
    }
  });

  it('answers 403 to a role without the permission, and to a token without the scope', async () => {
    const scoped = await users.owner.req('POST', '/api/v1/tokens', { name: 'only instance', permissions: ['instance.read'], expiresInDays: 1 });
    expect(scoped.status).toBe(201);
    const narrow = new Client(server.base, { token: scoped.json.token });
    let checked = 0;
    for (const f of files) {
      for (const m of f.methods) {
        const c = api[f.contracts[m] as keyof typeof api];
        const perm = c.permission as Permission;
        const lacking = ROLES.filter((r) => !ROLE_PERMISSIONS[r].has(perm));
        const callers = lacking.map((r) => users[r]);
        if (perm !== 'instance.read') callers.push(narrow);
        for (const client of callers) {
          const r = await client.req(m, concrete(f.pattern), m === 'GET' ? undefined : {});
          expect(r.status, `${m} ${f.pattern} as ${client.auth.token ? 'narrow token' : 'lacking role'}`).toBe(403);
          expect(r.json.error.code).toBe('forbidden');
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('bad input', () => {
  it('gets a typed 4xx and writes nothing', async () => {
    const before = await counts();
    const owner = users.owner;
    const cases: [string, string, unknown, Record<string, string>, number, string][] = [
      ['POST', '/api/v1/users', '{"email": "a@b.c", ', {}, 400, 'invalid_json'],
      ['POST', '/api/v1/users', { email: 'new@example.com', name: 'N', role: 'viewer', password: 12345678901234 }, {}, 400, 'validation'],
      ['POST', '/api/v1/users', { email: 'new@example.com', name: 'N', role: 'root', password: 'long enough password' }, {}, 400, 'validation'],
      [
        'POST',
        '/api/v1/users',
        { email: 'new@example.com', name: 'N', role: 'viewer', password: 'long enough password', isAdmin: true },
        {},
        400,
        'validation',
      ],
      ['POST', '/api/v1/users', { email: 'new@example.com', name: 'N', role: 'viewer', password: 'x'.repeat(2 * 1024 * 1024) }, {}, 413, 'payload_too_large'],
      ['POST', '/api/v1/users', 'email=new@example.com', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'unsupported_media_type'],
      ['POST', '/api/v1/tokens', { name: 't', permissions: ['jobs.read', 'root.everything'], expiresInDays: 1 }, {}, 400, 'validation'],
      ['POST', '/api/v1/tokens', { name: 't', permissions: [], expiresInDays: 1 }, {}, 400, 'validation'],
      ['POST', '/api/v1/jobs', { kind: 'pipeline-selftest', params: { lines: 'many' } }, {}, 400, 'validation'],
      ['POST', '/api/v1/jobs', { kind: 'Robert"); DROP TABLE jobs;--' }, {}, 400, 'validation'],
      ['POST', '/api/v1/jobs', { kind: 'no-such-kind' }, {}, 400, 'validation'],
      ['PATCH', '/api/v1/users/not-a-uuid', { role: 'admin' }, {}, 400, 'validation'],
      ['PATCH', '/api/v1/users/00000000-0000-4000-8000-000000000000', { role: 'admin' }, {}, 404, 'not_found'],
      ['PATCH', '/api/v1/users/00000000-0000-4000-8000-000000000000', {}, {}, 400, 'validation'],
      ['GET', '/api/v1/jobs?limit=100000', undefined, {}, 400, 'validation'],
      ['GET', '/api/v1/audit?from=yesterday', undefined, {}, 400, 'validation'],
    ];
    for (const [method, path, body, headers, status, code] of cases) {
      const r = await owner.req(method, path, body, headers);
      expect(r.status, `${method} ${path} ${String(JSON.stringify(body)).slice(0, 80)}`).toBe(status);
      expect(r.json.error.code).toBe(code);
      expect(r.json.error.message.length).toBeGreaterThan(10);
    }
    const unknown = await owner.req('POST', '/api/v1/users', {
      email: 'new@example.com',
      name: 'N',
      role: 'viewer',
      password: 'long enough password',
      isAdmin: true,
    });
    expect(unknown.json.error.issues).toEqual([{ path: '(root)', message: 'Unknown field(s): isAdmin' }]);
    expect(await counts()).toEqual(before);
  });

  it('refuses a cookie-authenticated write from another origin', async () => {
    const before = await counts();
    const r = await users.admin.req('POST', '/api/v1/jobs', { kind: 'diagnostics' }, { origin: 'http://evil.example' });
    expect(r.status).toBe(403);
    expect(r.json.error.message).toMatch(/Cross-site/);
    expect(await counts()).toEqual(before);
  });
});

describe('API tokens', () => {
  it('work until revoked or expired', async () => {
    const created = await users.admin.req('POST', '/api/v1/tokens', { name: 'script', permissions: ['jobs.read', 'jobs.run'], expiresInDays: 30 });
    expect(created.status).toBe(201);
    const tok = new Client(server.base, { token: created.json.token });
    expect((await tok.req('GET', '/api/v1/jobs')).status).toBe(200);
    const started = await tok.req('POST', '/api/v1/jobs', { kind: 'diagnostics' });
    expect(started.status).toBe(202);
    const [audit] = await sql`select actor_label, actor_token_id from audit_log where target_id = ${started.json.id}`;
    expect(audit.actor_token_id).toBe(created.json.record.id);
    expect(audit.actor_label).toBe('admin@example.com (token "script")');
    // A token cannot mint tokens, and lacks scopes it was not given.
    expect((await tok.req('GET', '/api/v1/tokens')).status).toBe(403);
    expect((await tok.req('POST', `/api/v1/jobs/${started.json.id}/cancel`)).status).toBe(403);

    // Expiry is moved in the database by hand, which no product path does (so no change notice is
    // sent): on a token the server has not resolved yet, whose refusals are never kept.
    const later = await users.admin.req('POST', '/api/v1/tokens', { name: 'later', permissions: ['jobs.read'], expiresInDays: 30 });
    expect(later.status).toBe(201);
    const tok2 = new Client(server.base, { token: later.json.token });
    await sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${later.json.record.id}`;
    const expired = await tok2.req('GET', '/api/v1/jobs');
    expect(expired.status).toBe(401);
    expect(expired.json.error.message).toMatch(/expired/);
    await sql`update api_tokens set expires_at = now() + interval '1 day' where id = ${later.json.record.id}`;
    expect((await tok2.req('GET', '/api/v1/jobs')).status).toBe(200);

    const revoked = await users.admin.req('DELETE', `/api/v1/tokens/${created.json.record.id}`);
    expect(revoked.status).toBe(200);
    const after = await tok.req('GET', '/api/v1/jobs');
    expect(after.status).toBe(401);
    expect(after.json.error.message).toMatch(/revoked/);
    const listed = await users.admin.req('GET', '/api/v1/tokens');
    expect(JSON.stringify(listed.json)).not.toContain(created.json.token);
  });
});

describe('WebSocket upgrades', () => {
  const open = (headers: Record<string, string>) =>
    new Promise<{ status?: number; first?: string }>((resolve) => {
      const ws = new WebSocket(server.base.replace('http', 'ws') + '/ws/jobs', { headers });
      ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
      ws.on('message', (m) => {
        resolve({ status: 101, first: m.toString() });
        ws.close();
      });
      ws.on('error', () => resolve({}));
    });

  it('authenticates and checks Origin before the handshake', async () => {
    expect((await open({})).status).toBe(401);
    expect((await open({ cookie: users.viewer.auth.cookie!, origin: 'http://evil.example' })).status).toBe(403);
    const ok = await open({ cookie: users.viewer.auth.cookie!, origin: server.base });
    expect(ok.status).toBe(101);
    expect(JSON.parse(ok.first!).type).toBe('hello');
    const narrow = await users.owner.req('POST', '/api/v1/tokens', { name: 'no jobs', permissions: ['instance.read'], expiresInDays: 1 });
    expect((await open({ authorization: `Bearer ${narrow.json.token}` })).status).toBe(403);
    const r = await fetch(server.base.replace('http', 'http') + '/ws/nothing-here', {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    }).catch(() => null);
    expect(r === null || r.status === 404).toBe(true);
  });
});
