// A server killed with SIGKILL mid-job: after a restart on the same data dir (PGlite, the default),
// the job does not stay "running": it ends failed with the reason, or runs again and finishes.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, type RunningServer, startServer, tempDir } from './helpers/server';
import { login, PASSWORD } from './helpers/session';

const LEASE_MS = 3000;
let server: RunningServer;
let dataDir: string;

beforeAll(async () => {
  await ensureBuilt();
  dataDir = tempDir('skilldock-restart-');
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = { SKILLDOCK_JOB_LEASE_MS: String(LEASE_MS), SKILLDOCK_ADMIN_EMAIL: 'owner@example.com', SKILLDOCK_ADMIN_PASSWORD: PASSWORD };

async function waitForJob(base: string, cookie: string, id: string, done: (j: any) => boolean, limitMs: number) {
  const end = Date.now() + limitMs;
  for (;;) {
    const r = await fetch(`${base}/api/v1/jobs/${id}`, { headers: { cookie } });
    const j = await r.json();
    if (done(j)) return j;
    if (Date.now() > end) throw new Error(`job ${id} still ${j.state} (${j.progressStage})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('ends or resumes jobs of a SIGKILLed server after restart, never leaving them running', async () => {
  server = await startServer({ dataDir, env });
  let owner = await login(server.base, 'owner@example.com');
  const long = await owner.req('POST', '/api/v1/jobs', { kind: 'pipeline-selftest', params: { lines: 100000, ratePerSecond: 50 } });
  expect(long.status).toBe(202);
  await waitForJob(server.base, owner.auth.cookie!, long.json.id, (j) => j.state === 'running' && j.logCount > 5, 30_000);

  await server.kill9();
  const crashedPid = server.proc.pid!;
  server = await startServer({ dataDir, env });
  expect(server.proc.pid).not.toBe(crashedPid);
  owner = await login(server.base, 'owner@example.com');

  // The reaper runs every lease/2; the bound below only limits how long the test waits.
  const ended = await waitForJob(server.base, owner.auth.cookie!, long.json.id, (j) => j.state !== 'running' && j.state !== 'queued', 10 * LEASE_MS);
  expect(ended.state).toBe('failed');
  expect(ended.error).toMatch(/stopped responding; its lease expired at/);
  const logs = await owner.req('GET', `/api/v1/jobs/${long.json.id}/logs?after=0&limit=10000`);
  const lines: { seq: number; line: string }[] = logs.json.items;
  expect(lines.at(-1)!.line).toMatch(/Ended as failed/);
  expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));

  // A resumable kind runs again after the crash and finishes.
  const diag = await owner.req('POST', '/api/v1/jobs', { kind: 'diagnostics' });
  await waitForJob(server.base, owner.auth.cookie!, diag.json.id, (j) => j.state === 'running', 30_000);
  await server.kill9();
  server = await startServer({ dataDir, env });
  owner = await login(server.base, 'owner@example.com');
  const resumed = await waitForJob(server.base, owner.auth.cookie!, diag.json.id, (j) => ['succeeded', 'failed', 'canceled'].includes(j.state), 20 * LEASE_MS);
  // Either the first attempt had already finished before the kill, or the second attempt ran it again.
  expect(resumed.state).toBe('succeeded');
  if (resumed.attempts === 2) {
    const l = await owner.req('GET', `/api/v1/jobs/${diag.json.id}/logs?after=0&limit=1000`);
    expect(l.json.items.some((x: { line: string }) => /Requeued to run again/.test(x.line))).toBe(true);
  }
});
