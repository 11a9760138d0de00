// test-phase: both engines. Its subject is the job queue, whose claims and locks differ by engine.
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openDatabase } from '@/db/client';
import { jobs } from '@/db/schema';
import { type Actor, ROLE_PERMISSIONS, systemActor } from '@/lib/auth';
import { AppError } from '@/lib/core/errors';
import { dbKind } from '@/test/helpers/db';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { JobEventHub } from './hub';
import {
  cancelJob,
  defineJobKind,
  diagnosticsJob,
  enqueue,
  enqueueByName,
  enqueueTree,
  getJob,
  type JobEvent,
  type JobKind,
  jobSpec,
  listJobs,
  listJobsQuery,
  onJobsFinished,
  pipelineSelftestJob,
  readJobLogs,
  retryJob,
  waitForChildren,
} from './index';

const admin: Actor = { ...systemActor, kind: 'user', userId: null, label: 'tester@example.com', role: 'admin', permissions: ROLE_PERMISSIONS.admin };
const viewer: Actor = { ...admin, label: 'viewer@example.com', role: 'viewer', permissions: ROLE_PERMISSIONS.viewer };

let t: TestServices;
const flaky = new Map<string, number>();

// Test-only kinds exercise retry, concurrency, parents and effects; the built-in kinds run real processes.
const flakyJob = defineJobKind({
  name: 'test.flaky',
  title: () => 'fails once, then succeeds',
  params: z.strictObject({ key: z.string() }),
  concurrency: 4,
  maxAttempts: 3,
  backoffMs: () => 100,
  resumable: false,
});
const serialJob = defineJobKind({
  name: 'test.serial',
  title: () => 'one at a time',
  params: z.strictObject({}),
  concurrency: 1,
  maxAttempts: 1,
  resumable: false,
  effects: ['test-effect'],
});
const sleepJob = defineJobKind({
  name: 'test.sleep',
  title: (p) => `sleep ${p.ms} ms`,
  params: z.strictObject({ ms: z.number().int().min(0).max(10_000) }),
  concurrency: 4,
  maxAttempts: 1,
  resumable: false,
});
const failingJob = defineJobKind({
  name: 'test.failing',
  title: () => 'fails with a typed error or a plain one',
  params: z.strictObject({ typed: z.boolean() }),
  concurrency: 2,
  maxAttempts: 1,
  resumable: false,
});
const parentJob: JobKind<Record<string, never>, { states: string[]; waitedMs: number }> = defineJobKind({
  name: 'test.parent',
  title: () => 'waits for its children',
  params: z.strictObject({}),
  concurrency: 2,
  maxAttempts: 1,
  resumable: true,
});

beforeAll(async () => {
  t = await startTestServices();
  t.services.jobKinds
    .register(flakyJob, async (ctx) => {
      const n = (flaky.get(ctx.params.key) ?? 0) + 1;
      flaky.set(ctx.params.key, n);
      if (n === 1) throw new Error('first attempt fails on purpose');
      return { attempt: n };
    })
    .register(serialJob, async (ctx) => {
      await ctx.run(process.execPath, ['-e', 'setTimeout(() => {}, 300)']);
    })
    .register(sleepJob, (ctx) => new Promise((resolve) => setTimeout(() => resolve({ slept: ctx.params.ms }), ctx.params.ms)))
    .register(failingJob, async (ctx) => {
      if (!ctx.params.typed) throw new Error('plain failure');
      throw new AppError('checksum_mismatch', 'The download does not match its checksum.', {
        details: { expected: 'aa', found: 'bb', jobResult: { downloaded: 3 } },
        hint: 'Ask the publisher to fix the release.',
      });
    })
    .register(parentJob, async (ctx) => {
      const started = Date.now();
      // A fallback far beyond the test's patience: only the bus's notices can end this wait in time.
      const children = await waitForChildren(ctx.database, t.services.hub, ctx.job.id, { signal: ctx.signal, fallbackMs: 600_000 });
      return { states: children.map((c) => c.state), waitedMs: Date.now() - started };
    });
});
afterAll(async () => t?.stop());

const finished = (id: string) =>
  waitFor(
    async () => {
      const j = await getJob(t.services.database, id);
      return ['succeeded', 'failed', 'canceled'].includes(j.state) ? j : null;
    },
    `job ${id} to finish`,
    60_000,
  );

describe('durable jobs', () => {
  it('runs diagnostics with real processes and stores its log in order', async () => {
    const job = await enqueue(t.services.database, admin, diagnosticsJob, {});
    const done = await finished(job.id);
    expect(done.state).toBe('succeeded');
    const result = done.result as { checks: { name: string; ok: boolean; version?: string }[] };
    const node = result.checks.find((c) => c.name === 'node');
    expect(node?.ok).toBe(true);
    expect(node?.version).toBe(process.versions.node);
    expect(result.checks.map((c) => c.name)).toEqual(['node', 'npm', 'python3', 'pip', 'git', 'docker']);
    const lines = await readJobLogs(t.services.database, job.id, 0, 1000);
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(lines.some((l) => l.line === `v${process.versions.node}`)).toBe(true);
    expect(done.progressPercent).toBe(100);
    // `npm test` starts a private dockerd when none answers; then the engine must be reported with its version.
    const docker = result.checks.find((c) => c.name === 'docker')!;
    if (process.env.DOCKER_HOST && !process.env.SKILLDOCK_TEST_DOCKER_ERROR) {
      expect(docker.ok).toBe(true);
      expect(docker.version).toMatch(/^\d+\.\d+/);
    } else expect((docker as { detail?: string }).detail).toMatch(/no Docker socket|refused|permission|no answer|ENOENT|ECONN/);
  });

  it('pages through jobs with a keyset cursor, each exactly once, in both orders', async () => {
    const db = t.services.database.db;
    const at = new Date();
    // Same timestamp on purpose: the cursor must break ties by id.
    await db.insert(jobs).values(
      Array.from({ length: 7 }, (_, i) => ({
        id: crypto.randomUUID(),
        kind: 'test.page',
        title: `p${i}`,
        state: 'succeeded' as const,
        createdByLabel: 't',
        createdAt: at,
      })),
    );
    for (const sort of ['created_desc', 'created_asc'] as const) {
      const seen: string[] = [];
      let before: string | undefined;
      do {
        const page = await listJobs(t.services.database, listJobsQuery.parse({ kind: 'test.page', limit: '3', sort, ...(before ? { before } : {}) }));
        seen.push(...page.items.map((j) => j.title));
        before = page.nextBefore ?? undefined;
      } while (before);
      expect(seen.sort()).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    }
    expect(() => listJobsQuery.parse({ before: "x' or 1=1" })).toThrow();
  });

  it('refuses a kind the actor may not start, and bad params, writing nothing', async () => {
    const before = await t.services.database.db.select().from(jobs);
    await expect(enqueue(t.services.database, viewer, diagnosticsJob, {})).rejects.toMatchObject({ code: 'forbidden' });
    await expect(enqueue(t.services.database, admin, pipelineSelftestJob, { lines: -1 })).rejects.toMatchObject({ code: 'validation' });
    await expect(enqueueByName(t.services.database, t.services.jobKinds, admin, 'no-such-kind', {})).rejects.toMatchObject({ code: 'validation' });
    await expect(enqueueByName(t.services.database, t.services.jobKinds, viewer, 'diagnostics', {})).rejects.toMatchObject({ code: 'forbidden' });
    // Kinds without a start permission are started by their own feature only.
    await expect(enqueueByName(t.services.database, t.services.jobKinds, admin, 'test.flaky', { key: 'x' })).rejects.toMatchObject({ code: 'forbidden' });
    expect(await t.services.database.db.select().from(jobs)).toHaveLength(before.length);
  });

  it('fans live lines out to a follower in sequence, with no gaps', async () => {
    const job = await enqueue(t.services.database, admin, pipelineSelftestJob, { lines: 3000, ratePerSecond: 0 });
    const got: number[] = [];
    let endState = '';
    const off = await t.services.hub.subscribe(job.id, (e: JobEvent) => {
      if (e.type === 'log' && e.line.startsWith('line ')) got.push(Number(e.line.split(' ')[1]));
      if (e.type === 'state') endState = e.job.state;
    });
    await finished(job.id);
    await waitFor(async () => got.length >= 3000 && endState === 'succeeded', 'all lines to arrive');
    off();
    expect(got).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
  });

  it('cancels a running job and kills its child process group', async () => {
    const marker = 987_651;
    const job = await enqueue(t.services.database, admin, pipelineSelftestJob, { lines: marker, ratePerSecond: 20 });
    await waitFor(async () => (await getJob(t.services.database, job.id)).logCount > 3, 'the job to log');
    const emitterAlive = () =>
      fs.readdirSync('/proc').some((p) => {
        try {
          return /^\d+$/.test(p) && fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(`\0${marker}\0`);
        } catch {
          return false;
        }
      });
    expect(emitterAlive()).toBe(true);
    await cancelJob(t.services.database, admin, job.id);
    const done = await finished(job.id);
    expect(done.state).toBe('canceled');
    await waitFor(async () => !emitterAlive(), 'the emitter process to be gone');
    await expect(cancelJob(t.services.database, admin, job.id)).rejects.toMatchObject({ code: 'invalid_state' });
    const retried = await retryJob(t.services.database, t.services.jobKinds, admin, job.id);
    expect(retried.retryOf).toBe(job.id);
    await cancelJob(t.services.database, admin, retried.id);
    expect((await finished(retried.id)).state).toBe('canceled');
  });

  it('retries a kind that declares attempts, with backoff, until it succeeds', async () => {
    const job = await enqueue(t.services.database, admin, flakyJob, { key: 'a' }, { trusted: true });
    const done = await finished(job.id);
    expect(done.state).toBe('succeeded');
    expect(done.attempts).toBe(2);
    const lines = (await readJobLogs(t.services.database, job.id, 0, 100)).map((l) => l.line);
    expect(lines.some((l) => l.includes('first attempt fails on purpose; retrying'))).toBe(true);
  });

  it('never runs more jobs of a kind at once than its concurrency, and tells the listeners of its effect', async () => {
    const ids: string[] = [];
    const heard: string[] = [];
    const off = onJobsFinished(t.services.hub, t.services.jobKinds, 'test-effect', (job) => heard.push(job.id));
    for (let i = 0; i < 3; i++) ids.push((await enqueue(t.services.database, admin, serialJob, {}, { trusted: true })).id);
    let maxRunning = 0;
    await waitFor(async () => {
      const rows = await t.services.database.db.select().from(jobs).where(eq(jobs.kind, 'test.serial'));
      maxRunning = Math.max(maxRunning, rows.filter((r) => r.state === 'running').length);
      return rows.every((r) => r.state === 'succeeded');
    }, 'serial jobs to finish');
    expect(maxRunning).toBe(1);
    await waitFor(async () => ids.every((id) => heard.includes(id)), 'the effect listener to hear every job');
    off();
  });

  it('wakes a parent on the state events of its children, not on a poll', async () => {
    const tree = await enqueueTree(
      t.services.database,
      admin,
      jobSpec(parentJob, {}),
      [jobSpec(sleepJob, { ms: 200 }), jobSpec(sleepJob, { ms: 400 }), jobSpec(flakyJob, { key: 'tree' })],
      { trusted: true },
    );
    const done = await finished(tree.parent.id);
    expect(done.state).toBe('succeeded');
    const result = done.result as { states: string[]; waitedMs: number };
    expect(result.states).toEqual(['succeeded', 'succeeded', 'succeeded']);
    // The flaky child needs a retry after 100 ms; everything ends within seconds, far below the fallback.
    expect(result.waitedMs).toBeLessThan(15_000);
    expect(tree.children.map((c) => c.parentId)).toEqual([tree.parent.id, tree.parent.id, tree.parent.id]);
  });

  it('types params by the kind', () => {
    // Never run: the assertions are the compiler's.
    const check = () => {
      // @ts-expect-error lines is a number
      void enqueue(t.services.database, admin, pipelineSelftestJob, { lines: 'many' });
      // @ts-expect-error unknown param
      void enqueue(t.services.database, admin, flakyJob, { key: 'a', extra: 1 });
      // @ts-expect-error a child's params are checked against its own kind
      void jobSpec(sleepJob, { key: 'a' });
    };
    expect(typeof check).toBe('function');
  });

  it("stores a failed job's error in the API's error shape, its partial result apart, and logs it as a warning", async () => {
    const err = vi.spyOn(process.stderr, 'write');
    const typed = await finished((await enqueue(t.services.database, admin, failingJob, { typed: true }, { trusted: true })).id);
    expect(typed.state).toBe('failed');
    // The line follows the stored state: wait for it (bounded).
    const failedLine = () => err.mock.calls.map((c) => String(c[0])).filter((l) => l.includes(typed.id) && l.includes('"job failed"'));
    const lines = await waitFor(async () => (failedLine().length ? failedLine() : null), 'the job failed line', 10_000);
    err.mockRestore();
    expect(lines.map((l) => JSON.parse(l))).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'job failed',
        id: typed.id,
        kind: 'test.failing',
        attempt: 1,
        error: 'The download does not match its checksum.',
      }),
    );
    expect(typed.error).toBe('The download does not match its checksum.');
    expect(typed.failure).toEqual({
      code: 'checksum_mismatch',
      message: 'The download does not match its checksum.',
      details: { expected: 'aa', found: 'bb' },
      hint: 'Ask the publisher to fix the release.',
    });
    expect(typed.result).toEqual({ downloaded: 3 });
    const plain = await finished((await enqueue(t.services.database, admin, failingJob, { typed: false }, { trusted: true })).id);
    expect(plain.failure).toEqual({ code: 'internal', message: 'plain failure' });
  });

  it('ends a job whose worker died as failed with the reason, and resumes a resumable one', async () => {
    const db = t.services.database.db;
    const dead = new Date(Date.now() - 60_000);
    // Rows as a crashed replica leaves them: claimed, running, lease run out.
    const crashed = { state: 'running' as const, leaseOwner: 'crashed-replica', leaseExpiresAt: dead, attempts: 1, createdByLabel: 'test', startedAt: dead };
    const [a] = await db
      .insert(jobs)
      .values({ id: crypto.randomUUID(), kind: 'pipeline-selftest', title: 'a', params: { lines: 1, ratePerSecond: 0 }, maxAttempts: 1, ...crashed })
      .returning();
    const [b] = await db
      .insert(jobs)
      .values({ id: crypto.randomUUID(), kind: 'diagnostics', title: 'b', params: {}, maxAttempts: 2, ...crashed })
      .returning();
    await t.services.worker!.reap();
    const fa = await finished(a.id);
    expect(fa.state).toBe('failed');
    expect(fa.error).toMatch(/crashed-replica.*stopped responding.*lease expired/);
    expect(fa.failure).toEqual({ code: 'unavailable', message: fa.error });
    const fb = await finished(b.id);
    expect(fb.state).toBe('succeeded');
    expect(fb.attempts).toBe(2);
  });

  it.skipIf(dbKind !== 'postgres')('delivers the live log to a second replica on the same PostgreSQL', async () => {
    const replica = await openDatabase({ databaseUrl: t.databaseUrl, pgliteDir: '' });
    const hub = new JobEventHub(replica);
    await hub.start();
    try {
      const job = await enqueue(t.services.database, admin, pipelineSelftestJob, { lines: 500, ratePerSecond: 2000 });
      const got: number[] = [];
      const off = await hub.subscribe(job.id, (e: JobEvent) => {
        if (e.type === 'log' && e.line.startsWith('line ')) got.push(Number(e.line.split(' ')[1]));
      });
      await finished(job.id);
      await waitFor(async () => got.length >= 500, 'the replica to receive every line');
      off();
      expect(got).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    } finally {
      await hub.stop();
      await replica.close();
    }
  });
});
