// test-phase: both engines. Its subject is the job list's cache, kept in step with each engine's rows.
// The job list kept as JSON pages: every change shows up in the next list, whoever made it, and a
// cached session cookie still meets the per-request user check.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@/lib/api/operations';
import { type Actor, ROLE_PERMISSIONS, type Role, systemActor } from '@/lib/auth';
import { createUser } from '@/lib/auth/users';
import type { Operation } from '@/lib/http/operation';
import { route } from '@/lib/http/route';
import { sessionDecoder } from '@/lib/http/session-tokens';
import { type Services, setServices } from '@/lib/services';
import { jobEnd } from '@/test/helpers/api';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { sessionCookieFor } from '@/test/helpers/session';
import { JobListCache } from './list-cache';
import { getJob } from './queue';
import { pruneFinishedJobs } from './retention';
import { BUS_CHANNEL } from './types';

let ts: TestServices;
let s: Services;
let cookie: string;
const system: Actor = { ...systemActor, permissions: ROLE_PERMISSIONS.owner };
let n = 0;
const newUser = async (role: Role) =>
  (await createUser(s.database.db, system, { email: `lc${++n}-${Date.now()}@example.test`, name: 'L', role, password: 'correct horse battery staple' })).id;

interface Page {
  items: { id: string; title: string; state: string; logCount: number; progressPercent: number }[];
  nextBefore: string | null;
}

async function call(op: Operation, who: string, method: string, url: string, body?: unknown, params?: Record<string, string>) {
  const res = await route(op)(
    new Request(`http://localhost${url}`, {
      method,
      headers: { cookie: who, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params ?? {}) },
  );
  return { status: res.status, json: await res.json(), type: res.headers.get('content-type') };
}
const list = async (q = '') => {
  const r = await call(ops.listJobs as Operation, cookie, 'GET', `/api/v1/jobs${q}`);
  expect(r.status).toBe(200);
  return r.json as Page;
};
const start = async (lines = 3) => {
  const r = await call(ops.startJob as Operation, cookie, 'POST', '/api/v1/jobs', { kind: 'pipeline-selftest', params: { lines } });
  expect(r.status).toBe(202);
  return r.json.id as string;
};

beforeAll(async () => {
  ts = await startTestServices({ worker: true });
  s = ts.services;
  setServices(Promise.resolve(s));
  cookie = await sessionCookieFor(s.authSecret, await newUser('owner'));
});
afterAll(async () => ts?.stop());

describe('the cached job list', () => {
  it('shows a new job in the very next list', async () => {
    const before = await list('?limit=200');
    expect(await list('?limit=200')).toEqual(before);
    const id = await start();
    expect((await list('?limit=200')).items.map((j) => j.id)).toContain(id);
  });

  it("shows a job's end, progress and log count as getJob does", async () => {
    const id = await start(40);
    await list();
    const done = await jobEnd(s, id);
    const item = (await list()).items.find((j) => j.id === id);
    expect(item).toMatchObject({ state: done.state, logCount: done.logCount, progressPercent: done.progressPercent });
  });

  it("hears of another replica's write through its notice", async () => {
    const id = await start(1);
    await jobEnd(s, id);
    // This process also hears its own notices back, later: wait until every notice sent so far has
    // arrived (they arrive in order, so a sentinel sent now comes last), then fill the page.
    const sentinel = JSON.stringify({ t: 'sentinel', id: `${id}-quiet` });
    let heard = false;
    const stop = await s.database.listen(BUS_CHANNEL, (payload) => {
      if (payload === sentinel) heard = true;
    });
    await s.database.rows(sql`select pg_notify(${BUS_CHANNEL}, ${sentinel})`);
    await waitFor(async () => heard, 'the notices sent so far to arrive');
    await stop();
    const title = (await list('?limit=5')).items.find((j) => j.id === id)?.title;
    expect(title).toBeDefined();
    // Straight to the database, as another process would write: this process sends no notice.
    await s.database.rows(sql`update jobs set title = 'renamed elsewhere' where id = ${id}`);
    expect((await list('?limit=5')).items.find((j) => j.id === id)?.title).toBe(title);
    await s.database.rows(sql`select pg_notify(${BUS_CHANNEL}, ${JSON.stringify({ t: 'state', id })})`);
    await waitFor(async () => (await list('?limit=5')).items.find((j) => j.id === id)?.title === 'renamed elsewhere', 'the notice to drop the page');
  });

  it('drops the pages when retention deletes jobs', async () => {
    const id = await start(1);
    await jobEnd(s, id);
    expect((await list('?limit=200')).items.map((j) => j.id)).toContain(id);
    expect(await pruneFinishedJobs(s.database, new Date(Date.now() + 60_000))).toBeGreaterThan(0);
    await expect(getJob(s.database, id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await list('?limit=200')).items.map((j) => j.id)).not.toContain(id);
  });

  it('answers the same JSON as the contract describes, with a JSON content type', async () => {
    await start(1);
    const r = await call(ops.listJobs as Operation, cookie, 'GET', '/api/v1/jobs?limit=1');
    expect(r.type).toMatch(/^application\/json/);
    expect(ops.listJobs.contract.response?.safeParse(r.json).success).toBe(true);
    expect(typeof r.json.items[0].createdAt).toBe('string');
  });

  it('is bounded', async () => {
    // Not started: no notice of the other tests' jobs empties it while it fills.
    const cache = new JobListCache(s.database, { maxEntries: 3 });
    for (let limit = 1; limit <= 10; limit++) await cache.list({ sort: 'created_desc', limit });
    expect(cache.size).toBe(3);
  });
});

describe('the cached session cookie', () => {
  it("refuses a disabled user's next request though the cookie was decoded a moment ago", async () => {
    const id = await newUser('operator');
    const theirs = await sessionCookieFor(s.authSecret, id);
    expect((await call(ops.listJobs as Operation, theirs, 'GET', '/api/v1/jobs')).status).toBe(200);
    const decodes = sessionDecoder().decodes;
    expect((await call(ops.listJobs as Operation, theirs, 'GET', '/api/v1/jobs')).status).toBe(200);
    expect(sessionDecoder().decodes).toBe(decodes);
    const off = await call(ops.updateUser as Operation, cookie, 'PATCH', `/api/v1/users/${id}`, { disabled: true }, { id });
    expect(off.status).toBe(200);
    const refused = await call(ops.listJobs as Operation, theirs, 'GET', '/api/v1/jobs');
    expect(refused.status).toBe(401);
    expect(refused.json.error.message).toMatch(/disabled/);
  });
});
