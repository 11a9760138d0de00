// test-phase: both engines. Its subject is a boot and a shutdown on each engine, whose close differs.
// Boot and shutdown (the process tests boot real processes, slow on a loaded machine, hence their bounds): the data dir belongs to one process, and a shutdown lets a step that must not be
// interrupted (a system package transaction) finish before the database closes.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { jobs } from '@/db/schema';
import { criticalTestHandler, criticalTestJob } from '@/test/helpers/critical-job';
import { testDatabaseUrl } from '@/test/helpers/db';
import { startTestServices, waitFor } from '@/test/helpers/services';
import { systemActor } from './auth/actor';
import { enqueue } from './jobs/queue';

const FIXTURE = path.resolve('test/helpers/server-process.ts');
const tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-shutdown-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  fs.rmSync(tmp, { recursive: true, force: true });
});

const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '');
const lines = (f: string) => read(f).split('\n').filter(Boolean);

describe('stopping the services', () => {
  it('lets a critical child finish after stop() was called, and closes the database only after it', async () => {
    const t = await startTestServices();
    const events: string[] = [];
    t.services.jobKinds.register(
      criticalTestJob,
      criticalTestHandler((e) => events.push(e)),
    );
    const marker = path.join(tmp, 'inproc-marker');
    const go = path.join(tmp, 'inproc-go');
    const job = await enqueue(t.services.database, systemActor, criticalTestJob, { marker, go }, { trusted: true });
    await waitFor(async () => read(marker) === 'started', 'the critical child to start');

    let stateAtClose: string | undefined;
    const close = t.services.database.close.bind(t.services.database);
    t.services.database.close = async () => {
      events.push('db-closed');
      const [row] = await t.services.database.db.select({ state: jobs.state }).from(jobs).where(eq(jobs.id, job.id));
      stateAtClose = row?.state;
      await close();
    };
    const stopping = t.stop();
    // stop() has asked every job to stop by now; the child is only told to finish afterwards.
    fs.writeFileSync(go, '');
    await stopping;

    expect(read(marker)).toBe('done');
    expect(events).toEqual(['child-exit:0', 'db-closed']);
    expect(stateAtClose).toBe('succeeded');
  }, 180_000);
});

interface Proc {
  child: ChildProcess;
  stderr: () => string;
  exit: Promise<number | null>;
  ready: Promise<{ pid: number; port: number }>;
}

function startFixture(env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/server-only-hook.mjs', FIXTURE], {
    cwd: process.cwd(),
    env: { ...process.env, LOG_LEVEL: 'info', SKILLDOCK_JOB_LEASE_MS: '3000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<{ pid: number; port: number }>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('"ready":true'));
      if (line) resolve(JSON.parse(line));
    });
    void exit.then((code) => reject(new Error(`the fixture exited (${code}) before it was ready: ${err.slice(-2000)}`)));
  });
  ready.catch(() => undefined);
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return { child, stderr: () => err, exit, ready };
}

function get(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

async function fixtureEnv(name: string): Promise<Record<string, string>> {
  const tdb = await testDatabaseUrl();
  cleanups.push(tdb.cleanup);
  const dataDir = path.join(tmp, name);
  return { SKILLDOCK_DATA_DIR: dataDir, ...(tdb.url ? { DATABASE_URL: tdb.url } : {}), SKILLDOCK_TEST_EVENTS: path.join(tmp, `${name}-events`) };
}

describe('a server process', () => {
  it('refuses a second process on the same data dir, naming the holder, and keeps serving', async () => {
    const env = await fixtureEnv('shared');
    const first = startFixture(env);
    const { pid, port } = await first.ready;
    const second = startFixture(env);
    expect(await second.exit).not.toBe(0);
    expect(second.stderr()).toContain(`pid ${pid}`);
    expect(await get(port)).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);
  }, 300_000);

  it('on SIGTERM lets the critical step finish, closes the database after it and exits 0', async () => {
    const env = await fixtureEnv('sigterm');
    const marker = path.join(tmp, 'sigterm-marker');
    const go = path.join(tmp, 'sigterm-go');
    const proc = startFixture({ ...env, SKILLDOCK_TEST_MARKER: marker, SKILLDOCK_TEST_GO: go });
    await proc.ready;
    await waitFor(async () => read(marker) === 'started', 'the critical child to start');
    proc.child.kill('SIGTERM');
    await waitFor(async () => lines(env.SKILLDOCK_TEST_EVENTS).includes('sigterm') || proc.child.exitCode !== null, 'the fixture to see SIGTERM');
    fs.writeFileSync(go, '');
    expect(await proc.exit).toBe(0);
    expect(read(marker)).toBe('done');
    expect(lines(env.SKILLDOCK_TEST_EVENTS)).toEqual(['sigterm', 'child-exit:0', 'db-closed']);
  }, 300_000);
});
