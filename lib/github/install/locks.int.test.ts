// The locks of GitHub jobs on real parts (the database's locks, the job worker, a loopback GitHub):
// Repair waits for installs in progress, and two packages never switch the same name or bin/ name at once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as repairRoute } from '@/app/api/v1/packages/github/repair/route';
import { POST as installRoute } from '@/app/api/v1/packages/install/route';
import { PUT as settingsPut } from '@/app/api/v1/settings/github/route';
import { openDatabase } from '@/db/client';
import { getJob, type JobRow } from '@/lib/jobs';
import { setServices } from '@/lib/services';
import { GITHUB_SETTINGS_DEFAULTS } from '@/lib/settings/github-settings';
import { apiUser, callRoute, jobEnd } from '@/test/helpers/api';
import { FakeGithub, tarGzWith } from '@/test/helpers/github-server';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { type GithubContext, installGithubPackage, uninstallGithubPackage } from './installer';
import { githubJobLocks } from './locks';

let t: TestServices;
let gh: FakeGithub;
let runtimeDir: string;
let token: string;
const TRUE = fs.readFileSync('/usr/bin/true');

beforeAll(async () => {
  runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-ghlocks-'));
  gh = await new FakeGithub().start();
  t = await startTestServices({ env: { RUNTIME_DIR: runtimeDir } });
  setServices(Promise.resolve(t.services));
  token = (await apiUser(t.services, { email: 'locks-admin@example.com', role: 'admin', tokenName: 'gh', permissions: ['packages.read', 'packages.write'] }))
    .token;
  const r = await callRoute(settingsPut, token, 'PUT', '/api/v1/settings/github', { apiBaseUrl: gh.base });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await gh?.stop();
  fs.rmSync(runtimeDir, { recursive: true, force: true });
});

const ctx = (): GithubContext => ({
  db: t.services.database.db,
  runtimeDir,
  settings: { ...GITHUB_SETTINGS_DEFAULTS, apiBaseUrl: gh.base, token: null },
  userAgent: 'skilldock-test',
  actor: 'admin@example.com',
  target: { os: 'linux', arch: 'amd64', libc: 'glibc' },
});
const jobOf = (r: { status: number; body: Record<string, unknown> }) => {
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return ((r.body.job as JobRow | undefined) ?? (r.body as unknown as JobRow)).id;
};
const ended = (j: JobRow) => ['succeeded', 'failed', 'canceled'].includes(j.state);

describe('locks of GitHub jobs', () => {
  it('installs share the jobs lock, Repair takes it alone, and on PostgreSQL that holds across replicas', async () => {
    // A second replica: its own pool on the same database (PGlite has one process, so the same handle).
    const other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, pgliteDir: '', max: 2 }) : t.services.database;
    try {
      const order: string[] = [];
      let releaseA!: () => void;
      const holdA = new Promise<void>((r) => {
        releaseA = r;
      });
      let aIn!: () => void;
      const aHolds = new Promise<void>((r) => {
        aIn = r;
      });
      const a = t.services.database.withLocks(githubJobLocks({ repo: 'acme/a' }), async () => {
        order.push('a in');
        aIn();
        await holdA;
        order.push('a out');
      });
      await aHolds;
      await other.withLocks(githubJobLocks({ repo: 'acme/b' }), async () => void order.push('b beside a'));
      const repair = other.withLocks(githubJobLocks({ exclusive: true }), async () => void order.push('repair'));
      if (t.databaseUrl)
        await waitFor(
          async () =>
            (await t.services.database.rows<{ n: number }>(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`))[0].n > 0,
          'the repair to wait for its lock',
        );
      else for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      releaseA();
      await Promise.all([a, repair]);
      expect(order).toEqual(['a in', 'b beside a', 'a out', 'repair']);
    } finally {
      if (other !== t.services.database) await other.close();
    }
  });

  it('a repair started while an install downloads waits for it and removes nothing of it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const data = tarGzWith('slow-tool-1.0', { 'slow-tool': TRUE }, { exec: ['slow-tool'] });
    gh.releases.set('acme/slow-tool', [{ tag: 'v1.0.0', assets: [{ name: 'slow-tool_1.0.0_linux_amd64.tar.gz', data, digest: true, gate }] }]);
    try {
      const installId = jobOf(await callRoute(installRoute, token, 'POST', '/api/v1/packages/install', { spec: 'github:acme/slow-tool' }));
      const tmp = path.join(runtimeDir, 'github', '.tmp');
      await waitFor(async () => fs.existsSync(tmp) && fs.readdirSync(tmp).some((d) => fs.existsSync(path.join(tmp, d, 'asset'))), 'the download to start');
      const repairId = jobOf(await callRoute(repairRoute, token, 'POST', '/api/v1/packages/github/repair'));
      // Held in flight, the install cannot finish: the repair either waits for it, or (unlocked) has already run.
      await waitFor(async () => {
        const j = await getJob(t.services.database, repairId);
        return j.progressStage === 'waiting for running GitHub jobs to finish' || ended(j);
      }, 'the repair to wait or end');
      release();
      const install = await jobEnd(t.services, installId, 60_000);
      const repair = await jobEnd(t.services, repairId, 60_000);
      expect(install.state, JSON.stringify(install.error)).toBe('succeeded');
      expect(repair.state, JSON.stringify(repair.error)).toBe('succeeded');
      expect((repair.result as { actions: unknown[] }).actions).toEqual([]);
      expect(fs.readlinkSync(path.join(runtimeDir, 'bin', 'slow-tool'))).toBe('../github/slow-tool/current/slow-tool');
      await uninstallGithubPackage(ctx(), 'slow-tool');
    } finally {
      release();
    }
  });

  it('two installs of different repositories claiming the same package or bin/ name never both go live', async () => {
    const kit = (dir: string, bins: string[]) => tarGzWith(dir, Object.fromEntries(bins.map((b) => [b, TRUE])), { exec: bins });
    // The same package name (foo) from two owners; then two packages (kit-a, kit-b) that both ship bin/foo.
    const cases = [
      { repos: ['acme/foo', 'other/foo'], files: [['foo'], ['foo']], code: 'conflict', name: 'foo' },
      {
        repos: ['acme/kit-a', 'acme/kit-b'],
        files: [
          ['foo', 'bar'],
          ['foo', 'baz'],
        ],
        code: 'binary_conflict',
        name: 'kit-',
      },
    ];
    for (const c of cases) {
      c.repos.forEach((repo, i) => {
        const data = kit(`${repo.split('/')[1]}-1.0`, c.files[i]);
        gh.releases.set(repo, [{ tag: 'v1.0', assets: [{ name: `${repo.split('/')[1]}-linux-amd64.tar.gz`, data, digest: true }] }]);
      });
      // Both are staged before either looks at the names, as two jobs on two replicas can be.
      let arrived = 0;
      let go!: () => void;
      const both = new Promise<void>((r) => {
        go = r;
      });
      const atStaged = async (s: string) => {
        if (s !== 'staged') return;
        if (++arrived === 2) go();
        await both;
      };
      const results = await Promise.allSettled(
        c.repos.map((repo) => installGithubPackage({ ...ctx(), locks: t.services.database, onStep: atStaged }, { repo })),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual([c.code]);
      const winner = (won[0] as PromiseFulfilledResult<{ name: string; repo: string }>).value;
      expect(winner.name.startsWith(c.name)).toBe(true);
      expect(fs.readlinkSync(path.join(runtimeDir, 'bin', 'foo'))).toBe(`../github/${winner.name}/current/foo`);
      const rows = await t.services.database.rows<{ repo: string }>(sql`select repo from github_packages where repo in (${c.repos[0]}, ${c.repos[1]})`);
      expect(rows.map((r) => r.repo)).toEqual([winner.repo]);
      await uninstallGithubPackage(ctx(), winner.name);
      for (const repo of c.repos) gh.releases.delete(repo);
    }
    expect(fs.readdirSync(path.join(runtimeDir, 'github', '.tmp'))).toEqual([]);
  });
});
