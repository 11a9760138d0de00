// test-phase: both engines. Its subject is the first-owner bootstrap, a race each engine must close.
// First-run setup needs the one-time token from the data dir; once an owner exists it is gone and
// setup answers 409 before anything else.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { action, createActionClient } from '@/lib/http/action';
import type { Operation } from '@/lib/http/operation';
import { route } from '@/lib/http/route';
import { type Services, setServices } from '@/lib/services';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { readSetupToken, SETUP_TOKEN_FILE, setupTokenMatches } from './setup-token';

let ts: TestServices;
let s: Services;
const owner = { email: 'first@example.com', name: 'First', password: 'correct horse battery staple' };
const tokenFile = () => path.join(ts.dataDir, SETUP_TOKEN_FILE);

const post = async (body: unknown) => {
  const res = await route(ops.setup)(
    new Request('http://localhost/api/setup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  );
  return { status: res.status, json: await res.json() };
};
const viaAction = () =>
  action(ops.setup as Operation, createActionClient({ request: async () => ({ cookie: null, ip: '127.0.0.1', userAgent: 'test' }), services: async () => s }));

beforeAll(async () => {
  ts = await startTestServices({ worker: false });
  s = ts.services;
  setServices(Promise.resolve(s));
});
afterAll(async () => ts?.stop());

describe('the setup token', () => {
  it('is written to the data dir, readable by the owner only', () => {
    const st = fs.statSync(tokenFile());
    expect(st.mode & 0o777).toBe(0o600);
    expect(readSetupToken(ts.dataDir)).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('is compared whole', () => {
    expect(setupTokenMatches('abc', 'abc')).toBe(true);
    expect(setupTokenMatches('abc', 'ab')).toBe(false);
    expect(setupTokenMatches('abc', '')).toBe(false);
    expect(setupTokenMatches(null, 'abc')).toBe(false);
  });

  it('is required by both doors, and nothing is created without it', async () => {
    const none = await post(owner);
    expect(none.status).toBe(403);
    expect(none.json.error.issues).toEqual([{ path: 'token', message: 'Enter the setup token' }]);
    const wrong = await post({ ...owner, token: 'x'.repeat(32) });
    expect(wrong.status).toBe(403);
    const a = await viaAction()({ body: { ...owner, token: 'nope' } } as never);
    expect(a.serverError).toMatchObject({ code: 'forbidden', status: 403 });
    expect(await s.database.db.select().from(users)).toHaveLength(0);
  });

  it('creates the owner with the token, and is deleted then', async () => {
    const ok = await post({ ...owner, token: readSetupToken(ts.dataDir) });
    expect(ok.status).toBe(201);
    expect(ok.json.role).toBe('owner');
    expect(fs.existsSync(tokenFile())).toBe(false);
  });

  it('answers 409 once an owner exists, whatever else the request holds', async () => {
    const again = await post({ ...owner, email: 'second@example.com', token: 'anything' });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('setup_done');
    expect((await post({ ...owner, email: 'third@example.com' })).status).toBe(409);
  });
});
