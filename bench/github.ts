// GitHub releases, against FakeGithub (a loopback GitHub API + download host, test/helpers/github-server.ts),
// with a PGlite database in a temp dir and a temp runtime dir. Traffic goes only to 127.0.0.1.
//
// (1) Update check of N installed packages (installed for real by installGithubPackage: each a tar.gz of
//     /usr/bin/true under the tool's name, with an API digest): githubOutdated with an empty ETag cache
//     (cold) and right after (warm: every request carries If-None-Match and is answered 304).
// (2) Install of a release whose tar.gz holds a 50 MB incompressible file plus /usr/bin/true as the binary:
//     installGithubPackage (download + verify + extract + choose + ELF + smoke + swap) against a plain
//     download of the same bytes from the same server (fetch streamed to a file) + `sha256sum` of the file.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { type GithubContext, installGithubPackage, uninstallGithubPackage } from '../lib/github/install/installer';
import { githubOutdated } from '../lib/github/updates/updates';
import { GITHUB_SETTINGS_DEFAULTS } from '../lib/settings/github-settings';
import { FakeGithub, sha256, tarGzWith } from '../test/helpers/github-server';
import { fmt, ROOT } from './common';

const execFileP = promisify(execFile);
const TRUE = fs.readFileSync('/usr/bin/true');

export interface CheckRun {
  ms: number;
  /** Requests that reached the server. */
  requests: number;
  /** API answers other than 304: each would count against GitHub's primary rate limit. */
  counted: number;
  notModified: number;
  outdated: number;
  errors: number;
}

export interface GithubBench {
  outdated: {
    packages: number;
    installMode: 'installed with installGithubPackage';
    installMs: number;
    runs: number;
    cold: CheckRun;
    warm: CheckRun;
    coldRunsMs: number[];
    warmRunsMs: number[];
    ratio: number;
  };
  install: {
    payloadBytes: number;
    assetBytes: number;
    runs: number;
    installMs: number;
    baselineMs: number;
    installRunsMs: number[];
    baselineRunsMs: number[];
    ratio: number;
    checksumSource: string;
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A fetch that tallies the status of every API answer (downloads are not API calls). */
function countingFetch() {
  const tally = { api: 0, counted: 0, notModified: 0 };
  const f: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!new URL(url).pathname.includes('/releases/download/')) {
      tally.api++;
      if (res.status === 304) tally.notModified++;
      else tally.counted++;
    }
    return res;
  };
  return { fetch: f, tally };
}

async function openBenchDb(dir: string): Promise<Database> {
  const database = await openDatabase({ pgliteDir: path.join(dir, 'pglite') });
  await migrateDatabase(database, path.join(ROOT, 'drizzle'));
  return database;
}

export async function githubBench(packages = 100, runs = 3, payloadMb = 50): Promise<GithubBench> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-github-'));
  const gh = await new FakeGithub().start();
  let database: Database | undefined;
  try {
    database = await openBenchDb(tmp);
    const runtimeDir = path.join(tmp, 'runtime');
    fs.mkdirSync(runtimeDir);
    const counter = countingFetch();
    const ctx: GithubContext = {
      db: database.db,
      runtimeDir,
      settings: { ...GITHUB_SETTINGS_DEFAULTS, apiBaseUrl: gh.base, token: null },
      userAgent: 'skilldock-bench',
      actor: 'bench',
      target: { os: 'linux', arch: 'amd64', libc: 'glibc' },
      fetch: counter.fetch,
    };

    // (1) N packages at v1.0.0; v1.1.0 is the latest release of each, so every one is outdated.
    const names = Array.from({ length: packages }, (_, i) => `tool-${String(i + 1).padStart(3, '0')}`);
    for (const name of names) {
      const asset = (tag: string) => ({
        name: `${name}_${tag.slice(1)}_linux_amd64.tar.gz`,
        data: tarGzWith(`${name}_${tag}`, { [name]: TRUE, 'README.md': `${name} ${tag}\n` }, { exec: [name] }),
        digest: true,
      });
      gh.releases.set(`bench/${name}`, [
        { tag: 'v1.1.0', assets: [asset('v1.1.0')] },
        { tag: 'v1.0.0', assets: [asset('v1.0.0')] },
      ]);
    }
    const t0 = performance.now();
    for (const name of names) await installGithubPackage(ctx, { repo: `bench/${name}`, tag: 'v1.0.0' });
    const installMs = performance.now() - t0;

    const check = async (): Promise<CheckRun> => {
      const before = { requests: gh.requests.length, ...counter.tally };
      const t = performance.now();
      const r = await githubOutdated(ctx);
      const ms = performance.now() - t;
      if (r.errors.length)
        console.log(
          `  ${r.errors.length} errors, e.g. ${r.errors
            .slice(0, 3)
            .map((e) => `${e.name}: ${e.message}`)
            .join('; ')}`,
        );
      return {
        ms,
        requests: gh.requests.length - before.requests,
        counted: counter.tally.counted - before.counted,
        notModified: counter.tally.notModified - before.notModified,
        outdated: r.outdated.length,
        errors: r.errors.length,
      };
    };
    const pair = async () => {
      await database!.rows(sql`delete from github_http_cache`);
      const cold = await check();
      const warm = await check();
      if (cold.outdated !== packages || warm.outdated !== packages)
        throw new Error(`expected ${packages} outdated each time, got ${cold.outdated} cold and ${warm.outdated} warm`);
      return [cold, warm] as const;
    };
    await pair(); // warm-up: connections, JIT, PGlite caches
    const pairs: (readonly [CheckRun, CheckRun])[] = [];
    for (let i = 0; i < runs; i++) pairs.push(await pair());
    const coldRunsMs = pairs.map((p) => p[0].ms);
    const warmRunsMs = pairs.map((p) => p[1].ms);
    const cold = { ...pairs[0][0], ms: median(coldRunsMs) };
    const warm = { ...pairs[0][1], ms: median(warmRunsMs) };

    // (2) A 50 MB incompressible payload next to the binary.
    const payload = crypto.randomBytes(payloadMb * 1024 * 1024);
    const big = tarGzWith('bigtool_v1.0.0', { bigtool: TRUE, 'payload.bin': payload }, { exec: ['bigtool'] });
    const assetName = 'bigtool_1.0.0_linux_amd64.tar.gz';
    gh.releases.set('bench/bigtool', [{ tag: 'v1.0.0', assets: [{ name: assetName, data: big, digest: true }] }]);
    const url = `${gh.base}/bench/bigtool/releases/download/v1.0.0/${assetName}`;
    const want = sha256(big);
    const dlDir = path.join(tmp, 'baseline');
    fs.mkdirSync(dlDir);
    // Building the archive blocks the event loop for seconds: let fetch see the idle connections the
    // server closed meanwhile, or it reuses one and the first download fails with ECONNRESET.
    await new Promise((r) => setTimeout(r, 200));

    const baseline = async () => {
      const file = path.join(dlDir, assetName);
      fs.rmSync(file, { force: true });
      const t = performance.now();
      const res = await fetch(url);
      if (!res.ok || !res.body) throw new Error(`baseline download: ${res.status}`);
      await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), fs.createWriteStream(file));
      const { stdout } = await execFileP('sha256sum', [file]);
      const ms = performance.now() - t;
      if (stdout.split(' ')[0] !== want) throw new Error('baseline: sha256 mismatch');
      return ms;
    };
    let checksumSource = '';
    const install = async () => {
      const t = performance.now();
      const m = await installGithubPackage(ctx, { repo: 'bench/bigtool' });
      const ms = performance.now() - t;
      if (m.sha256 !== want || m.binaries[0]?.name !== 'bigtool')
        throw new Error(`install: unexpected result ${m.sha256} ${m.binaries.map((b) => b.name).join()}`);
      checksumSource = m.checksumSource;
      await uninstallGithubPackage(ctx, 'bigtool');
      return ms;
    };
    await baseline();
    await install(); // warm-ups
    const installRunsMs: number[] = [];
    const baselineRunsMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      baselineRunsMs.push(await baseline());
      installRunsMs.push(await install());
    }
    const installMed = median(installRunsMs);
    const baselineMed = median(baselineRunsMs);

    return {
      outdated: { packages, installMode: 'installed with installGithubPackage', installMs, runs, cold, warm, coldRunsMs, warmRunsMs, ratio: warm.ms / cold.ms },
      install: {
        payloadBytes: payload.length,
        assetBytes: big.length,
        runs,
        installMs: installMed,
        baselineMs: baselineMed,
        installRunsMs,
        baselineRunsMs,
        ratio: installMed / baselineMed,
        checksumSource,
      },
    };
  } finally {
    await database?.close();
    await gh.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function describeCheck(r: CheckRun): string {
  return `${fmt(r.ms, 0)} ms, ${r.requests} requests, ${r.counted} counted against the rate limit (non-304), ${r.notModified} × 304, ${r.outdated} outdated, ${r.errors} errors`;
}
