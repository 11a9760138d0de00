// Updates, pins, Update All and runtime settings on real parts: pip with wheels this test builds,
// the job worker, the database (PGlite and PostgreSQL) and the route handlers with a real API token.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as installRoute } from '@/app/api/v1/packages/install/route';
import { POST as pinRoute } from '@/app/api/v1/packages/pins/route';
import { GET as listRoute } from '@/app/api/v1/packages/route';
import { POST as uninstallRoute } from '@/app/api/v1/packages/uninstall/route';
import { POST as applyAllRoute } from '@/app/api/v1/packages/updates/apply-all/route';
import { POST as refreshRoute } from '@/app/api/v1/packages/updates/refresh/route';
import { GET as updatesRoute } from '@/app/api/v1/packages/updates/route';
import { GET as settingsGet, PUT as settingsPut } from '@/app/api/v1/settings/runtime/route';
import type { JobRow } from '@/lib/jobs';
import { setServices } from '@/lib/services';
import { apiUser, callRoute, jobEnd } from '@/test/helpers/api';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { buildWheel } from '@/test/helpers/wheels';
import { startUpdateScheduler } from './update-requests';
import type { UpdatesView } from './updates';

let t: TestServices;
let runtimeDir: string;
let wheels: string;
let token: string;

beforeAll(async () => {
  runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-upd-runtime-'));
  wheels = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-upd-wheels-'));
  for (const name of ['skd-good', 'skd-bad', 'skd-held'])
    await buildWheel(wheels, { name, version: '1.0', modules: { [`${name.replace('-', '_')}.py`]: 'X = 1\n' } });
  t = await startTestServices({ env: { RUNTIME_DIR: runtimeDir } });
  setServices(Promise.resolve(t.services));
  token = (
    await apiUser(t.services, { email: 'upd-admin@example.com', role: 'admin', tokenName: 'updates test', permissions: ['packages.read', 'packages.write'] })
  ).token;
}, 60_000);
afterAll(async () => {
  await t?.stop();
  for (const d of [runtimeDir, wheels]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const call = (handler: (req: Request) => Promise<Response>, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
  callRoute(handler, token, method, url, body);
const finished = (id: string) => jobEnd(t.services, id);
const count = async (table: string) => (await t.services.database.rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)))[0].n;
const updates = async () => (await call(updatesRoute, 'GET', '/api/v1/packages/updates')).body as unknown as UpdatesView & { refreshJobId: string | null };
const refresh = async () => {
  const r = await call(refreshRoute, 'POST', '/api/v1/packages/updates/refresh');
  expect(r.status).toBe(202);
  return finished((r.body.job as JobRow).id);
};

describe('runtime settings', () => {
  it('rejects bad values with the field named and changes nothing', async () => {
    const before = await call(settingsGet, 'GET', '/api/v1/settings/runtime');
    const audits = await count('audit_log');
    for (const body of [
      { pipIndexUrl: 'ftp://mirror.example/simple' },
      { binaries: ['../bin/sh'] },
      { pipFindLinks: ['relative/dir'] },
      { npmRegistry: 'https://user:pw@registry.example/' },
      { nope: 1 },
    ]) {
      const r = await call(settingsPut, 'PUT', '/api/v1/settings/runtime', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call(settingsGet, 'GET', '/api/v1/settings/runtime')).body).toEqual(before.body);
    expect(await count('audit_log')).toBe(audits);
  });

  it('stores a patch, keeps the other fields and audits the change', async () => {
    const r = await call(settingsPut, 'PUT', '/api/v1/settings/runtime', { pipFindLinks: [wheels], pipNoIndex: true, binaries: ['git', 'sh'] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ pipFindLinks: [wheels], pipNoIndex: true, binaries: ['git', 'sh'], aptAutoUpdate: true, npmRegistry: '' });
    const [audit] = await t.services.database.rows<{ action: string; after: Record<string, unknown> }>(
      sql`select action, after from audit_log where action = 'settings.runtime.update' order by id desc limit 1`,
    );
    expect(audit.after).toEqual({ pipFindLinks: [wheels], pipNoIndex: true, binaries: ['git', 'sh'] });
  });
});

describe('stale-while-revalidate and the schedule', () => {
  const checkJobs = async () =>
    t.services.database.rows<{ id: string; state: string; created_by_label: string }>(
      sql`select id, state, created_by_label from jobs where kind = 'package.updates.check' order by created_at`,
    );

  it('a read of never-checked results starts one background check, and later reads wait for it', async () => {
    const first = await updates();
    expect(first.stale).toBe(true);
    expect(first.refreshJobId).toEqual(expect.any(String));
    const second = await updates();
    expect([first.refreshJobId, null]).toContain(second.refreshJobId);
    expect((await checkJobs()).map((j) => j.created_by_label)).toEqual(['scheduler']);
    await finished(first.refreshJobId!);
    const after = await updates();
    expect(after.refreshJobId).toBeNull();
    expect(after.stale).toBe(false);
    expect(after.sources.every((s) => s.checkedAt !== null && s.error === null)).toBe(true);
  });

  it('the scheduler queues a check once the interval has passed, and only then', async () => {
    const before = (await checkJobs()).length;
    let offsetMs = 0;
    const stop = startUpdateScheduler(t.services.database, { tickMs: 20, now: () => Date.now() + offsetMs });
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect((await checkJobs()).length).toBe(before);
      offsetMs = 7 * 3_600_000; // past the default 6 h interval
      const queued = await waitFor(async () => ((await checkJobs()).length > before ? (await checkJobs()).at(-1) : null), 'a scheduled check', 10_000);
      expect(queued.created_by_label).toBe('scheduler');
      await finished(queued.id);
    } finally {
      stop();
    }
  });
});

describe('updates and Update All', () => {
  it('installs three pip packages through jobs from the configured find-links', async () => {
    for (const name of ['skd-good', 'skd-bad', 'skd-held']) {
      const r = await call(installRoute, 'POST', '/api/v1/packages/install', { spec: `pip:${name}==1.0` });
      expect(r.status).toBe(202);
      const job = await finished((r.body as unknown as JobRow).id);
      expect(job.error).toBeNull();
    }
    const list = await call(listRoute, 'GET', '/api/v1/packages?manager=pip&managed=true');
    const items = list.body.items as { name: string; version: string; installedBy?: string; installedAt?: string }[];
    expect(items.map((i) => i.name).sort()).toEqual(['skd-bad', 'skd-good', 'skd-held']);
    expect(items.map((i) => i.installedBy)).toEqual([...Array(3).fill('upd-admin@example.com (token "updates test")')]);
    expect(items.every((i) => Date.parse(i.installedAt ?? '') > Date.now() - 600_000)).toBe(true);
  });

  it('finds newer versions, and a failing check carries the known updates forward', async () => {
    await buildWheel(wheels, { name: 'skd-good', version: '2.0', modules: { 'skd_good.py': 'X = 2\n' } });
    await buildWheel(wheels, { name: 'skd-held', version: '1.1', modules: { 'skd_held.py': 'X = 2\n' } });
    // A wheel that pip cannot install: the update of skd-bad will fail.
    fs.writeFileSync(path.join(wheels, 'skd_bad-2.0-py3-none-any.whl'), 'this is not a zip archive');
    const check = await refresh();
    expect(check.state).toBe('succeeded');
    let view = await updates();
    expect(view.updates.map((u) => `${u.spec} ${u.current}→${u.latest}`)).toEqual(['pip:skd-bad 1.0→2.0', 'pip:skd-good 1.0→2.0', 'pip:skd-held 1.0→1.1']);
    expect(view.sources.find((s) => s.source === 'pip')).toMatchObject({ error: null, stale: false });
    const firstChecked = view.updates[0].checkedAt;

    // The find-links folder disappears: every pip look-up fails, yet nothing known is lost.
    await call(settingsPut, 'PUT', '/api/v1/settings/runtime', { pipFindLinks: [path.join(wheels, 'missing')] });
    await refresh();
    view = await updates();
    expect(view.updates).toHaveLength(3);
    expect(view.updates.every((u) => /find-links directory .*missing cannot be read/.test(u.checkError ?? '') && u.checkedAt === firstChecked)).toBe(true);
    expect(view.sources.find((s) => s.source === 'pip')?.packageErrors).toBe(3);
    await call(settingsPut, 'PUT', '/api/v1/settings/runtime', { pipFindLinks: [wheels] });
  });

  it('pins a package: Update All skips it and refuses it by name', async () => {
    const pin = await call(pinRoute, 'POST', '/api/v1/packages/pins', { spec: 'pip:skd_held', pinned: true, reason: 'waiting for QA' });
    expect(pin.status).toBe(200);
    expect((await updates()).updates.find((u) => u.name === 'skd-held')).toMatchObject({ pinned: true, pinReason: 'waiting for QA' });
    const jobs = await count('jobs');
    const refused = await call(applyAllRoute, 'POST', '/api/v1/packages/updates/apply-all', { packages: ['pip:skd-held'] });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toMatch(/pinned \(waiting for QA\); unpin it/);
    const unknown = await call(applyAllRoute, 'POST', '/api/v1/packages/updates/apply-all', { packages: ['pip:not-installed-here'] });
    expect(unknown.status).toBe(409);
    const hostile = await call(applyAllRoute, 'POST', '/api/v1/packages/updates/apply-all', { packages: ['pip:foo;rm -rf /'] });
    expect(hostile.status).toBe(400);
    expect(await count('jobs')).toBe(jobs);
  });

  it('runs Update All: the good update lands, the bad one fails with its reason, and both results stay visible', async () => {
    const r = await call(applyAllRoute, 'POST', '/api/v1/packages/updates/apply-all', {});
    expect(r.status).toBe(202);
    const children = r.body.children as JobRow[];
    expect(children.map((c) => (c.params as { spec: string; toVersion: string }).spec).sort()).toEqual(['pip:skd-bad', 'pip:skd-good']);
    expect(children.every((c) => c.parentId === (r.body.job as JobRow).id && (c.params as { toVersion: string }).toVersion === '2.0')).toBe(true);
    const parent = await finished((r.body.job as JobRow).id);
    expect(parent.state).toBe('failed');
    expect(parent.error).toMatch(/^1 of 2 failed: pip:skd-bad/);
    const items = (parent.result as { items: { spec: string; state: string; toVersion: string | null; error: string | null }[] }).items;
    expect(items.find((i) => i.spec === 'pip:skd-good')).toMatchObject({ state: 'succeeded', toVersion: '2.0', error: null });
    expect(items.find((i) => i.spec === 'pip:skd-bad')).toMatchObject({ state: 'failed' });
    expect(items.find((i) => i.spec === 'pip:skd-bad')?.error).toBeTruthy();

    const view = await updates();
    expect(view.updates.map((u) => u.name)).toEqual(['skd-bad', 'skd-held']);
    const bad = view.updates.find((u) => u.name === 'skd-bad')!;
    expect(bad.lastJobId).toBe(children.find((c) => (c.params as { spec: string }).spec === 'pip:skd-bad')!.id);
    expect(bad.lastError).toBe(items.find((i) => i.spec === 'pip:skd-bad')?.error);
    const list = await call(listRoute, 'GET', '/api/v1/packages?manager=pip&managed=true');
    const versions = Object.fromEntries((list.body.items as { name: string; version: string }[]).map((i) => [i.name, i.version]));
    expect(versions).toEqual({ 'skd-bad': '1.0', 'skd-good': '2.0', 'skd-held': '1.0' });
  });

  it('installing an older version re-checks that package: its update shows without a refresh', async () => {
    expect((await updates()).updates.map((u) => u.name)).not.toContain('skd-good');
    const r = await call(installRoute, 'POST', '/api/v1/packages/install', { spec: 'pip:skd-good==1.0' });
    expect((await finished((r.body as unknown as JobRow).id)).state).toBe('succeeded');
    expect((await updates()).updates.find((u) => u.name === 'skd-good')).toMatchObject({ current: '1.0', latest: '2.0', spec: 'pip:skd-good' });
    // Installing the latest again clears it the same way.
    const again = await call(installRoute, 'POST', '/api/v1/packages/install', { spec: 'pip:skd-good==2.0' });
    expect((await finished((again.body as unknown as JobRow).id)).state).toBe('succeeded');
    expect((await updates()).updates.map((u) => u.name)).not.toContain('skd-good');
  });

  it('an uninstalled package leaves the updates table', async () => {
    const r = await call(uninstallRoute, 'POST', '/api/v1/packages/uninstall', { spec: 'pip:skd-bad' });
    expect((await finished((r.body as unknown as JobRow).id)).state).toBe('succeeded');
    expect((await updates()).updates.map((u) => u.name)).toEqual(['skd-held']);
    const unpin = await call(pinRoute, 'POST', '/api/v1/packages/pins', { spec: 'pip:skd-held', pinned: false });
    expect(unpin.body).toEqual({ pinned: false });
    expect((await call(pinRoute, 'POST', '/api/v1/packages/pins', { spec: 'pip:skd-held', pinned: false })).status).toBe(404);
  });
});
