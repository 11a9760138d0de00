// GitHub releases through the API and the job system: settings with a sealed token, the release
// picker route, install/update/rollback/uninstall as jobs, the update check with ETags (a 304 keeps
// the pending update) and Update All — against a loopback GitHub serving real archives.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as channelRoute } from '@/app/api/v1/packages/github/channel/route';
import { POST as rollbackRoute } from '@/app/api/v1/packages/github/rollback/route';
import { GET as overviewRoute } from '@/app/api/v1/packages/github/route';
import { GET as releasesRoute } from '@/app/api/v1/packages/github-releases/route';
import { POST as installRoute } from '@/app/api/v1/packages/install/route';
import { GET as listRoute } from '@/app/api/v1/packages/route';
import { POST as uninstallRoute } from '@/app/api/v1/packages/uninstall/route';
import { POST as applyAllRoute } from '@/app/api/v1/packages/updates/apply-all/route';
import { POST as refreshRoute } from '@/app/api/v1/packages/updates/refresh/route';
import { GET as updatesRoute } from '@/app/api/v1/packages/updates/route';
import { GET as settingsGet, PUT as settingsPut } from '@/app/api/v1/settings/github/route';
import type { JobRow } from '@/lib/jobs';
import { setServices } from '@/lib/services';
import { apiUser, callRoute, jobEnd } from '@/test/helpers/api';
import { FakeGithub, tarGzWith } from '@/test/helpers/github-server';
import { startTestServices, type TestServices } from '@/test/helpers/services';

let t: TestServices;
let gh: FakeGithub;
let runtimeDir: string;
let token: string;
const TRUE = fs.readFileSync('/usr/bin/true');
const archive = (tag: string) => tarGzWith(`hello-tool_${tag}`, { 'hello-tool': TRUE, 'README.md': tag }, { exec: ['hello-tool'] });

beforeAll(async () => {
  runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-ghjobs-'));
  gh = await new FakeGithub().start();
  gh.releases.set('acme/hello-tool', [
    {
      tag: 'v1.0.0',
      assets: [
        { name: 'hello-tool_1.0.0_linux_amd64.tar.gz', data: archive('v1.0.0'), digest: true },
        { name: 'hello-tool_1.0.0_linux_amd64.deb', data: Buffer.from('deb') },
      ],
    },
  ]);
  t = await startTestServices({ env: { RUNTIME_DIR: runtimeDir } });
  setServices(Promise.resolve(t.services));
  token = (await apiUser(t.services, { email: 'gh-admin@example.com', role: 'admin', tokenName: 'gh', permissions: ['packages.read', 'packages.write'] }))
    .token;
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await gh?.stop();
  fs.rmSync(runtimeDir, { recursive: true, force: true });
});

const call = (handler: (req: Request) => Promise<Response>, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
  callRoute(handler, token, method, url, body);
const finished = (id: string) => jobEnd(t.services, id, 120_000);
const run = async (r: { status: number; body: Record<string, unknown> }) => {
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return finished(((r.body.job as JobRow | undefined) ?? (r.body as unknown as JobRow)).id);
};
const updates = async () =>
  (await call(updatesRoute, 'GET', '/api/v1/packages/updates')).body as {
    updates: { source: string; name: string; current: string; latest: string; checkError: string | null }[];
    sources: { source: string; error: string | null }[];
  };

describe('GitHub releases through the API', () => {
  it('stores settings with the token sealed and masked, and refuses bad values', async () => {
    expect((await call(settingsPut, 'PUT', '/api/v1/settings/github', { apiBaseUrl: 'ftp://x' })).status).toBe(400);
    expect((await call(settingsPut, 'PUT', '/api/v1/settings/github', { allowedOwners: ['-bad-'] })).status).toBe(400);
    const r = await call(settingsPut, 'PUT', '/api/v1/settings/github', { apiBaseUrl: gh.base, token: 'ghp_secret_value' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ apiBaseUrl: gh.base, token: '***', tokenSource: 'setting' });
    const [stored] = await t.services.database.rows<{ value: string }>(sql`select value::text as value from settings where key = 'github'`);
    expect(stored.value).not.toContain('ghp_secret_value');
    const [audit] = await t.services.database.rows<{ after: string }>(
      sql`select after::text as after from audit_log where action = 'settings.github.update' order by id desc limit 1`,
    );
    expect(audit.after).not.toContain('ghp_secret_value');
    // Sending the mask back keeps the token.
    expect((await call(settingsPut, 'PUT', '/api/v1/settings/github', { token: '***', retainedVersions: 3 })).body).toMatchObject({
      token: '***',
      retainedVersions: 3,
    });
    expect((await call(settingsGet, 'GET', '/api/v1/settings/github')).body.token).toBe('***');
  });

  it('lists releases with the asset this host would take and why the others lost; unknown repos are 404', async () => {
    const r = await call(releasesRoute, 'GET', '/api/v1/packages/github-releases?repo=acme/hello-tool&limit=5');
    expect(r.status).toBe(200);
    const [rel] = r.body.releases as {
      tag: string;
      chosen: { name: string; reasons: string[] };
      rejected: { name: string; reason: string }[];
      matchingAssets: number;
      totalAssets: number;
    }[];
    expect(rel).toMatchObject({ tag: 'v1.0.0', matchingAssets: 1, totalAssets: 2, chosen: { name: 'hello-tool_1.0.0_linux_amd64.tar.gz' } });
    expect(rel.rejected.map((x) => x.name)).toEqual(['hello-tool_1.0.0_linux_amd64.deb']);
    expect(gh.requests.at(-1)?.auth).toBe('Bearer ghp_secret_value');
    expect((await call(releasesRoute, 'GET', '/api/v1/packages/github-releases?repo=acme/missing')).status).toBe(404);
    expect((await call(releasesRoute, 'GET', '/api/v1/packages/github-releases?repo=../etc')).status).toBe(400);
  });

  it('installs github:acme/hello-tool as a job and lists it', async () => {
    const job = await run(await call(installRoute, 'POST', '/api/v1/packages/install', { spec: 'github:acme/hello-tool' }));
    expect(job.error).toBeNull();
    expect(job.kind).toBe('github.install');
    const list = await call(listRoute, 'GET', '/api/v1/packages?manager=github');
    expect(list.body.items).toEqual([
      expect.objectContaining({ manager: 'github', name: 'hello-tool', version: 'v1.0.0', managed: true, installedBy: 'gh-admin@example.com (token "gh")' }),
    ]);
    const overview = await call(overviewRoute, 'GET', '/api/v1/packages/github');
    expect(overview.body).toMatchObject({ tokenConfigured: true, target: { os: 'linux', arch: 'amd64', libc: 'glibc' } });
    expect((overview.body.rateLimits as { remaining: number }[])[0].remaining).toBe(42);
  });

  it('finds the newer release, keeps it through an unchanged (304) answer, and Update All applies it', async () => {
    gh.releases
      .get('acme/hello-tool')!
      .unshift({ tag: 'v1.1.0', assets: [{ name: 'hello-tool_1.1.0_linux_amd64.tar.gz', data: archive('v1.1.0'), digest: true }] });
    expect((await run(await call(refreshRoute, 'POST', '/api/v1/packages/updates/refresh'))).state).toBe('succeeded');
    const first = (await updates()).updates.filter((u) => u.source === 'github');
    expect(first).toEqual([expect.objectContaining({ name: 'hello-tool', current: 'v1.0.0', latest: 'v1.1.0', checkError: null })]);
    expect((await run(await call(refreshRoute, 'POST', '/api/v1/packages/updates/refresh'))).state).toBe('succeeded');
    expect(gh.requests.filter((r) => r.path.endsWith('/releases/latest')).at(-1)?.ifNoneMatch).toBeTruthy();
    expect((await updates()).updates.filter((u) => u.source === 'github')).toEqual(first.map((u) => ({ ...u, checkedAt: expect.any(String) })));

    const all = await call(applyAllRoute, 'POST', '/api/v1/packages/updates/apply-all', { packages: ['github:hello-tool'] });
    expect((all.body.children as JobRow[]).map((c) => [c.kind, c.params])).toEqual([['github.update', { name: 'hello-tool', toTag: 'v1.1.0' }]]);
    expect((await run(all)).state).toBe('succeeded');
    expect((await updates()).updates.filter((u) => u.source === 'github')).toEqual([]);
    expect(fs.readlinkSync(path.join(runtimeDir, 'github', 'hello-tool', 'current'))).toBe('v1.1.0');
  });

  it('offers pre-releases only to a package on the pre-release channel', async () => {
    gh.releases.get('acme/hello-tool')!.unshift({
      tag: 'v1.2.0-rc.1',
      prerelease: true,
      assets: [{ name: 'hello-tool_1.2.0-rc.1_linux_amd64.tar.gz', data: archive('v1.2.0-rc.1'), digest: true }],
    });
    await run(await call(refreshRoute, 'POST', '/api/v1/packages/updates/refresh'));
    expect((await updates()).updates.filter((u) => u.source === 'github')).toEqual([]);
    expect((await call(channelRoute, 'POST', '/api/v1/packages/github/channel', { name: 'hello-tool', channel: 'prerelease' })).body).toEqual({
      name: 'hello-tool',
      channel: 'prerelease',
    });
    expect((await call(channelRoute, 'POST', '/api/v1/packages/github/channel', { name: 'nope', channel: 'prerelease' })).status).toBe(404);
    expect((await call(channelRoute, 'POST', '/api/v1/packages/github/channel', { name: 'hello-tool', channel: 'nightly' })).status).toBe(400);
    await run(await call(refreshRoute, 'POST', '/api/v1/packages/updates/refresh'));
    expect((await updates()).updates.filter((u) => u.source === 'github')).toEqual([expect.objectContaining({ current: 'v1.1.0', latest: 'v1.2.0-rc.1' })]);
    await call(channelRoute, 'POST', '/api/v1/packages/github/channel', { name: 'hello-tool', channel: 'stable' });
    gh.releases.get('acme/hello-tool')!.shift();
  });

  it('rolls back and uninstalls as jobs', async () => {
    const rb = await run(await call(rollbackRoute, 'POST', '/api/v1/packages/github/rollback', { name: 'hello-tool', version: 'v1.0.0' }));
    expect(rb.error).toBeNull();
    expect(fs.readlinkSync(path.join(runtimeDir, 'github', 'hello-tool', 'current'))).toBe('v1.0.0');
    expect((await call(rollbackRoute, 'POST', '/api/v1/packages/github/rollback', { name: 'hello-tool', version: '../../etc' })).status).toBe(400);
    const un = await run(await call(uninstallRoute, 'POST', '/api/v1/packages/uninstall', { spec: 'github:acme/hello-tool' }));
    expect(un.kind).toBe('github.uninstall');
    expect(un.error).toBeNull();
    expect(fs.existsSync(path.join(runtimeDir, 'bin', 'hello-tool'))).toBe(false);
    expect((await call(uninstallRoute, 'POST', '/api/v1/packages/uninstall', { spec: 'github:acme/hello-tool' })).status).toBe(404);
  });
});
