// Packages through the job system on real parts: the npm registry, the worker, the database lock,
// and the route handlers with a real API token (the production server is exercised by e2e).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as installRoute } from '@/app/api/v1/packages/install/route';
import { GET as listRoute } from '@/app/api/v1/packages/route';
import { GET as runtimesRoute } from '@/app/api/v1/packages/runtimes/route';
import { POST as uninstallRoute } from '@/app/api/v1/packages/uninstall/route';
import { POST as updateRoute } from '@/app/api/v1/packages/update/route';
import { type Actor, ROLE_PERMISSIONS } from '@/lib/auth';
import { createToken } from '@/lib/auth/tokens';
import { createUser } from '@/lib/auth/users';
import { parseWith } from '@/lib/http/request';
import { enqueue, getJob, type JobRow, readJobLogs } from '@/lib/jobs';
import { parsePackageSpec } from '@/lib/runtime';
import { setServices } from '@/lib/services';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import {
  installPackageInput,
  listPackages,
  type PackageOpResult,
  packageInstallJob,
  packageLockKey,
  packageUninstallJob,
  uninstallPackageInput,
  updatePackageInput,
} from './index';

let t: TestServices;
let runtimeDir: string;
let token: string;
let admin: Actor;

beforeAll(async () => {
  runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-pkg-runtime-'));
  t = await startTestServices({ env: { RUNTIME_DIR: runtimeDir } });
  // The route handlers find the services of this process the way route bundles do.
  setServices(Promise.resolve(t.services));
  const user = await createUser(
    t.services.database.db,
    {
      kind: 'system',
      userId: null,
      tokenId: null,
      email: 'system',
      role: 'owner',
      permissions: ROLE_PERMISSIONS.owner,
      label: 'system',
      ip: null,
      userAgent: null,
    },
    {
      email: 'pkg-admin@example.com',
      name: 'Package admin',
      role: 'admin',
      password: 'a long enough password',
    },
  );
  admin = {
    kind: 'user',
    userId: user.id,
    tokenId: null,
    email: user.email,
    role: 'admin',
    permissions: ROLE_PERMISSIONS.admin,
    label: user.email,
    ip: null,
    userAgent: null,
  };
  token = (await createToken(t.services.database.db, admin, { name: 'packages test', permissions: ['packages.read', 'packages.write'], expiresInDays: 1 }))
    .token;
});
afterAll(async () => {
  await t?.stop();
  fs.rmSync(runtimeDir, { recursive: true, force: true });
});

const call = (handler: (req: Request) => Promise<Response>, method: 'GET' | 'POST', url: string, body?: unknown) =>
  handler(
    new Request(`http://localhost${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );

const finished = (id: string) =>
  waitFor(
    async () => {
      const j = await getJob(t.services.database, id);
      return ['succeeded', 'failed', 'canceled'].includes(j.state) ? j : null;
    },
    `job ${id} to finish`,
    240_000,
  );

const jobCount = async () => (await t.services.database.rows<{ n: number }>(sql`select count(*)::int as n from jobs`))[0].n;
const npmManaged = async () => (await listPackages(t.services.packages.context(), { manager: 'npm', managed: 'true' })).items;

describe('packages through jobs', () => {
  it('installs, lists, updates and uninstalls a real npm package', async () => {
    const res = await call(installRoute, 'POST', '/api/v1/packages/install', { spec: 'npm:is-number@6.0.0' });
    expect(res.status).toBe(202);
    const queued = (await res.json()) as JobRow;
    expect(queued.kind).toBe('package.install');
    const installed = await finished(queued.id);
    expect(installed.error).toBeNull();
    expect(installed.state).toBe('succeeded');
    expect(installed.result).toMatchObject({ manager: 'npm', name: 'is-number', fromVersion: null, toVersion: '6.0.0' });
    expect((installed.result as PackageOpResult).durationMs).toBeGreaterThan(0);
    const lines = (await readJobLogs(t.services.database, queued.id, 0, 5000)).map((l) => l.line);
    expect(lines.some((l) => /^\$ \S*npm install --global --prefix \S+ .*is-number@6\.0\.0$/.test(l))).toBe(true);
    expect(fs.existsSync(path.join(runtimeDir, 'npm-global', 'lib', 'node_modules', 'is-number', 'package.json'))).toBe(true);

    const list = await call(listRoute, 'GET', '/api/v1/packages?manager=npm&managed=true&q=IS-NUM');
    expect(list.status).toBe(200);
    const { items } = (await list.json()) as { items: { manager: string; name: string; version: string; managed: boolean }[] };
    expect(items).toEqual([expect.objectContaining({ manager: 'npm', name: 'is-number', version: '6.0.0', managed: true })]);

    const upd = await call(updateRoute, 'POST', '/api/v1/packages/update', { spec: 'npm:is-number' });
    expect(upd.status).toBe(202);
    const updated = await finished(((await upd.json()) as JobRow).id);
    expect(updated.state).toBe('succeeded');
    expect(updated.result).toMatchObject({ manager: 'npm', name: 'is-number', fromVersion: '6.0.0', toVersion: expect.stringMatching(/^7\./) });
    expect((await npmManaged()).map((p) => `${p.name}@${p.version.split('.')[0]}`)).toEqual(['is-number@7']);

    const uninstall = await enqueue(t.services.database, admin, packageUninstallJob, { spec: 'npm:is-number' }, { trusted: true });
    const removed = await finished(uninstall.id);
    expect(removed.state).toBe('succeeded');
    expect(removed.result).toMatchObject({ manager: 'npm', name: 'is-number', fromVersion: expect.stringMatching(/^7\./), toVersion: null });
    expect(await npmManaged()).toEqual([]);
  });

  it('ends a job for a package the registry does not have as failed, with the typed reason', async () => {
    const job = await enqueue(t.services.database, admin, packageInstallJob, { spec: 'npm:skilldock-no-such-package-4b1f9c2e' }, { trusted: true });
    const done = await finished(job.id);
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/npm install of skilldock-no-such-package-4b1f9c2e@latest failed: not found/);
  });

  it('refuses uninstalling a package it did not install, starting no process', async () => {
    const job = await enqueue(t.services.database, admin, packageUninstallJob, { spec: 'npm:left-pad' }, { trusted: true });
    const done = await finished(job.id);
    expect(done.state).toBe('failed');
    expect(done.error).toMatch(/not installed in the runtime dir/);
    const lines = (await readJobLogs(t.services.database, job.id, 0, 1000)).map((l) => l.line);
    expect(lines.some((l) => l.startsWith('$ '))).toBe(false);
  });

  it('rejects hostile and unsupported specs at the input schema, creating no job', async () => {
    const before = await jobCount();
    const hostile = ['pip:foo;rm -rf /', '$(id)', '-rf', "npm:a');require("];
    for (const spec of hostile) {
      for (const schema of [installPackageInput, uninstallPackageInput, updatePackageInput]) {
        expect(() => parseWith(schema, { spec }, 'request body'), spec).toThrow(
          expect.objectContaining({ code: 'validation', message: expect.stringContaining('Invalid package spec') }),
        );
      }
      for (const [route, url] of [
        [installRoute, '/api/v1/packages/install'],
        [uninstallRoute, '/api/v1/packages/uninstall'],
        [updateRoute, '/api/v1/packages/update'],
      ] as const) {
        const r = await call(route, 'POST', url, { spec });
        expect(r.status, `${url} ${spec}`).toBe(400);
        const body = (await r.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('validation');
        expect(body.error.message).toContain('Invalid package spec');
      }
    }
    const overridesOnNpm = await call(installRoute, 'POST', '/api/v1/packages/install', { spec: 'npm:is-number', overrides: { binaryName: 'x' } });
    expect(overridesOnNpm.status).toBe(400);
    expect(JSON.stringify(await overridesOnNpm.json())).toContain('apply to github: specs only');
    for (const spec of ['github:-x/repo', 'github:o/.hidden', 'github:o/r@'])
      expect((await call(installRoute, 'POST', '/api/v1/packages/install', { spec })).status, spec).toBe(400);
    const badVersion = await call(updateRoute, 'POST', '/api/v1/packages/update', { spec: 'npm:is-number', toVersion: '7' });
    expect(badVersion.status).toBe(400);
    await expect(enqueue(t.services.database, admin, packageInstallJob, { spec: '$(id)' }, { trusted: true })).rejects.toMatchObject({ code: 'validation' });
    await expect(enqueue(t.services.database, admin, packageInstallJob, { spec: 'npm:is-number' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await jobCount()).toBe(before);
  });

  it('reports runtimes from a cache that ?refresh=true renews, with the skill process environment', async () => {
    type Report = { runtimeDir: string; checkedAt: string; env: { name: string; value: string }[]; managers: Record<string, { ready: boolean }> };
    const get = async (q = '') => {
      const r = await call(runtimesRoute, 'GET', `/api/v1/packages/runtimes${q}`);
      expect(r.status).toBe(200);
      return (await r.json()) as Report;
    };
    const first = await get();
    expect(first.runtimeDir).toBe(path.resolve(runtimeDir));
    expect(first.env.find((e) => e.name === 'NPM_CONFIG_PREFIX')?.value).toBe(path.join(path.resolve(runtimeDir), 'npm-global'));
    expect(Object.keys(first.managers).sort()).toEqual(['github', 'npm', 'pip', 'system']);
    expect((await get()).checkedAt).toBe(first.checkedAt);
    expect((await get('?refresh=true')).checkedAt).not.toBe(first.checkedAt);
    expect((await call(runtimesRoute, 'GET', '/api/v1/packages/runtimes?refresh=yes')).status).toBe(400);
  });

  it('gives install, uninstall and update of one package one lock key', () => {
    const keys = ['pip:Foo_Bar', 'pip:foo-bar==1.0', 'pip:foo.bar[x]>=2'].map((s) => packageLockKey(parsePackageSpec(s)));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeGreaterThanOrEqual(2 ** 30);
    expect(keys[0]).toBeLessThan(2 ** 31);
    expect(packageLockKey(parsePackageSpec('npm:is-number@6.0.0'))).toBe(packageLockKey(parsePackageSpec('npm:is-number', { context: 'uninstall' })));
    expect(packageLockKey(parsePackageSpec('npm:is-number'))).not.toBe(packageLockKey(parsePackageSpec('npm:is-odd')));
  });
});
