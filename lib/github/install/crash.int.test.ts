// Crash consistency of GitHub-release updates: a child process updating v1 → v2 is SIGKILLed at each
// step; after the boot-time recovery the binary is the old or the new version, runs, the record
// agrees with the disk, and nothing is left over. And a loop running the binary through updates
// and rollbacks never finds it missing.
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { GITHUB_SETTINGS_DEFAULTS } from '@/lib/settings/github-settings';
import { type TestDatabase, testDatabaseUrl } from '@/test/helpers/db';
import { FakeGithub, tarGzWith } from '@/test/helpers/github-server';
import { readManifest } from './activate';
import { type GithubContext, getGithubPackage, type InstallStep, installGithubPackage, rollbackGithubPackage } from './installer';
import { recoverGithubInstalls } from './recovery';

const run = promisify(execFile);
const CHILD = path.resolve('test/helpers/github-crash-child.ts');
const STEPS: InstallStep[] = ['staged', 'committed', 'smoke-tested', 'current-switched', 'recorded'];
const REPO = 'acme/hello-tool';
let gh: FakeGithub;
let tdb: TestDatabase;

beforeAll(async () => {
  gh = await new FakeGithub().start();
  // Both versions run /usr/bin/true: which one is live is read from the current link and the record.
  const TRUE = fs.readFileSync('/usr/bin/true');
  gh.releases.set(
    REPO,
    ['v2.0.0', 'v1.0.0'].map((tag) => ({
      tag,
      assets: [
        {
          name: `hello-tool_${tag}_linux_amd64.tar.gz`,
          data: tarGzWith(`hello-tool_${tag}`, { 'hello-tool': TRUE, VERSION: tag }, { exec: ['hello-tool'] }),
          digest: true,
        },
      ],
    })),
  );
  tdb = await testDatabaseUrl();
}, 60_000);
afterAll(async () => {
  await gh?.stop();
  await tdb?.cleanup();
});

function childRun(cfg: Record<string, unknown>, marker: string): Promise<{ paused: string | null; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/server-only-hook.mjs', CHILD, JSON.stringify({ ...cfg, marker })], {
      stdio: ['ignore', 'ignore', 'pipe'],
      cwd: process.cwd(),
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setInterval(() => {
      const m = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '';
      if (m && m !== 'done') {
        clearInterval(timer);
        child.kill('SIGKILL');
      }
    }, 20);
    child.on('exit', (code) => {
      clearInterval(timer);
      const m = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '';
      if (!m) return reject(new Error(`the child ended (${code}) without reaching a step: ${stderr.slice(-2000)}`));
      resolve({ paused: m === 'done' ? null : m, code });
    });
  });
}

describe('crash consistency of GitHub updates', () => {
  for (const step of STEPS) {
    it(`SIGKILL after "${step}": the old or the new version runs afterwards, with no leftovers`, async () => {
      const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), `skilldock-crash-${step}-`));
      // Each case gets its own database directory (PGlite) or schema state (PostgreSQL: records are per name, reset here).
      const pgliteDir = tdb.dataDir ? fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-crash-db-')) : undefined;
      const cfg = { databaseUrl: tdb.url, pgliteDir, runtimeDir, apiBase: gh.base, repo: REPO };
      try {
        // v1 is installed in this process (then the database is closed, so the child can own PGlite's files).
        const setup = await openDatabase({ databaseUrl: tdb.url, pgliteDir: pgliteDir ?? '' });
        await migrateDatabase(setup);
        await setup.db.execute('delete from github_packages');
        await installGithubPackage(
          {
            db: setup.db,
            runtimeDir,
            settings: { ...GITHUB_SETTINGS_DEFAULTS, apiBaseUrl: gh.base, token: null },
            userAgent: 'crash-test',
            actor: 'crash-test',
            target: { os: 'linux', arch: 'amd64', libc: 'glibc' },
          },
          { repo: REPO, tag: 'v1.0.0' },
        );
        await setup.close();
        expect(await childRun({ ...cfg, tag: 'v2.0.0', pauseAt: step }, path.join(runtimeDir, 'm2'))).toMatchObject({ paused: step });

        const database: Database = await openDatabase({ databaseUrl: tdb.url, pgliteDir: pgliteDir ?? '' });
        try {
          await recoverGithubInstalls(database.db, runtimeDir);
          const bin = path.join(runtimeDir, 'bin', 'hello-tool');
          expect(execFileSync(bin, ['--version']).toString()).toMatch(/^true/);
          const pkgDir = path.join(runtimeDir, 'github', 'hello-tool');
          const current = fs.readlinkSync(path.join(pkgDir, 'current'));
          const expected = step === 'current-switched' || step === 'recorded' ? 'v2.0.0' : 'v1.0.0';
          expect(current).toBe(expected);
          expect(readManifest(path.join(pkgDir, current))?.tag).toBe(expected);
          expect((await getGithubPackage(database.db, 'hello-tool'))?.tag).toBe(expected);
          expect(fs.readdirSync(path.join(runtimeDir, 'github', '.tmp'))).toEqual([]);
          const left = fs
            .readdirSync(pkgDir)
            .filter((e) => e.startsWith('current.') || e.startsWith('.tmp-') || (e !== 'current' && !fs.existsSync(path.join(pkgDir, e, '.install.json'))));
          expect(left).toEqual([]);
          // Only the live version and the kept one remain; nothing half-made in bin/.
          expect(
            fs
              .readdirSync(pkgDir)
              .filter((e) => e !== 'current')
              .sort(),
          ).toEqual(expected === 'v2.0.0' ? ['v1.0.0', 'v2.0.0'] : ['v1.0.0']);
          expect(fs.readdirSync(path.join(runtimeDir, 'bin'))).toEqual(['hello-tool']);
          expect(await recoverGithubInstalls(database.db, runtimeDir)).toEqual([]);
        } finally {
          await database.close();
        }
      } finally {
        fs.rmSync(runtimeDir, { recursive: true, force: true });
        if (pgliteDir) fs.rmSync(pgliteDir, { recursive: true, force: true });
      }
    }, 120_000);
  }

  it('a loop running the binary during updates and rollbacks never finds it missing', async () => {
    const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-swaploop-'));
    const pgliteDir = tdb.dataDir ? fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-swaploop-db-')) : undefined;
    const database = await openDatabase({ databaseUrl: tdb.url, pgliteDir: pgliteDir ?? '' });
    try {
      await migrateDatabase(database);
      await database.db.execute('delete from github_packages');
      const ctx: GithubContext = {
        db: database.db,
        runtimeDir,
        settings: { ...GITHUB_SETTINGS_DEFAULTS, apiBaseUrl: gh.base, token: null },
        userAgent: 'loop-test',
        actor: 'loop',
        target: { os: 'linux', arch: 'amd64', libc: 'glibc' },
      };
      await installGithubPackage(ctx, { repo: REPO, tag: 'v1.0.0' });
      const bin = path.join(runtimeDir, 'bin', 'hello-tool');
      let runs = 0;
      const failures: string[] = [];
      let stop = false;
      const loop = (async () => {
        while (!stop) {
          try {
            await run(bin, ['--version']);
            runs++;
          } catch (e) {
            failures.push((e as Error).message);
          }
        }
      })();
      for (let i = 0; i < 2; i++) {
        await installGithubPackage(ctx, { repo: REPO, tag: 'v2.0.0' });
        await rollbackGithubPackage(ctx, 'hello-tool', 'v1.0.0');
      }
      stop = true;
      await loop;
      expect(failures).toEqual([]);
      expect(runs).toBeGreaterThan(10);
    } finally {
      await database.close();
      fs.rmSync(runtimeDir, { recursive: true, force: true });
      if (pgliteDir) fs.rmSync(pgliteDir, { recursive: true, force: true });
    }
  }, 120_000);
});
