// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// A system package through the job system: real apt-get from the Debian archive, the worker, the
// database, the routes with a real API token. Needs root on Debian/Ubuntu (CI runs as root).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as installRoute } from '@/app/api/v1/packages/install/route';
import { GET as listRoute } from '@/app/api/v1/packages/route';
import { POST as uninstallRoute } from '@/app/api/v1/packages/uninstall/route';
import { POST as refreshRoute } from '@/app/api/v1/packages/updates/refresh/route';
import { GET as updatesRoute } from '@/app/api/v1/packages/updates/route';
import { PUT as settingsPut } from '@/app/api/v1/settings/runtime/route';
import { runProcess } from '@/lib/core/process';
import { type JobRow, readJobLogs } from '@/lib/jobs';
import { detectSystemManager } from '@/lib/runtime';
import { setServices } from '@/lib/services';
import { apiUser, callRoute, jobEnd } from '@/test/helpers/api';
import { startTestServices, type TestServices } from '@/test/helpers/services';

const skipReason = process.getuid?.() !== 0 ? 'needs root' : detectSystemManager() !== 'apt' ? 'needs apt-get' : '';
if (skipReason) console.warn(`system.int.test: skipping the apt job tests: ${skipReason}`);

let t: TestServices;
let runtimeDir: string;
let token: string;
const dpkgHas = async (pkg: string) => (await runProcess('dpkg-query', ['-W', '-f', '${Status}', pkg])).stdout.includes('ok installed');

describe.skipIf(!!skipReason)('apt through jobs', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    if (await dpkgHas('hello')) await runProcess('/usr/bin/apt-get', ['remove', '-y', 'hello'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-apt-jobs-'));
    t = await startTestServices({ env: { RUNTIME_DIR: runtimeDir } });
    setServices(Promise.resolve(t.services));
    token = (await apiUser(t.services, { email: 'apt-admin@example.com', role: 'admin', tokenName: 'apt', permissions: ['packages.read', 'packages.write'] }))
      .token;
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    if (runtimeDir) fs.rmSync(runtimeDir, { recursive: true, force: true });
  });

  const call = (handler: (req: Request) => Promise<Response>, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    callRoute(handler, token, method, url, body);
  const finished = (id: string) => jobEnd(t.services, id, 280_000);
  const managedHello = async () =>
    ((await call(listRoute, 'GET', '/api/v1/packages?manager=system&managed=true&q=hello')).body.items as { name: string; installedBy?: string }[]).filter(
      (p) => p.name === 'hello',
    );

  it('installs hello as a job, with its apt output in the log, and lists it as installed here', async () => {
    // This host's apt sources also name hosts tests must not contact: never run apt-get update here.
    expect((await call(settingsPut, 'PUT', '/api/v1/settings/runtime', { aptAutoUpdate: false })).status).toBe(200);
    const r = await call(installRoute, 'POST', '/api/v1/packages/install', { spec: 'system:hello' });
    expect(r.status).toBe(202);
    const job = await finished((r.body as unknown as JobRow).id);
    expect(job.error).toBeNull();
    expect(job.result).toMatchObject({ manager: 'apt', name: 'hello', fromVersion: null });
    const lines = (await readJobLogs(t.services.database, job.id, 0, 10_000)).map((l) => l.line);
    expect(lines.some((l) => /apt-get .*install .*hello$/.test(l))).toBe(true);
    expect(lines.some((l) => /Setting up hello/.test(l))).toBe(true);
    expect(await dpkgHas('hello')).toBe(true);
    expect(await managedHello()).toEqual([expect.objectContaining({ name: 'hello', installedBy: 'apt-admin@example.com (token "apt")' })]);
  });

  it('checks apt for updates of the packages it recorded, without touching the package lists', async () => {
    const r = await call(refreshRoute, 'POST', '/api/v1/packages/updates/refresh');
    expect((await finished(((r.body.job ?? {}) as JobRow).id)).state).toBe('succeeded');
    const view = (await call(updatesRoute, 'GET', '/api/v1/packages/updates')).body as {
      sources: { source: string; error: string | null; checkedAt: string | null }[];
    };
    expect(view.sources.find((s) => s.source === 'apt')).toMatchObject({ error: null, checkedAt: expect.any(String) });
  });

  it('uninstalls hello as a job: gone from dpkg and from the managed list', async () => {
    const r = await call(uninstallRoute, 'POST', '/api/v1/packages/uninstall', { spec: 'hello' });
    const job = await finished((r.body as unknown as JobRow).id);
    expect(job.error).toBeNull();
    expect(await dpkgHas('hello')).toBe(false);
    expect(await managedHello()).toEqual([]);
  });
});
