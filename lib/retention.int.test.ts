// test-phase: both engines. Its subject is the retention sweeps' batched deletes on each engine.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobLogs, jobs, loginThrottle } from '@/db/schema';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { sweepRetention } from './retention';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices({ worker: false });
});
afterAll(async () => t?.stop());

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

describe('retention sweep', () => {
  it('deletes finished jobs with their logs, audit records and spent throttles past their windows, and keeps the rest', async () => {
    const { database } = t.services;
    const db = database.db;
    const job = (id: string, state: 'queued' | 'running' | 'succeeded' | 'failed', created: Date, finished: Date | null) => ({
      id,
      kind: 'diagnostics',
      title: id,
      state,
      createdByLabel: 'test',
      createdAt: created,
      finishedAt: finished,
    });
    const ids = {
      old: crypto.randomUUID(),
      oldFailed: crypto.randomUUID(),
      recent: crypto.randomUUID(),
      running: crypto.randomUUID(),
      queued: crypto.randomUUID(),
    };
    await db
      .insert(jobs)
      .values([
        job(ids.old, 'succeeded', ago(120), ago(100)),
        job(ids.oldFailed, 'failed', ago(95), ago(91)),
        job(ids.recent, 'succeeded', ago(120), ago(10)),
        job(ids.running, 'running', ago(200), null),
        job(ids.queued, 'queued', ago(200), null),
      ]);
    // More lines than one delete batch, so the logs go in several.
    for (const id of [ids.old, ids.recent, ids.running]) {
      await database.rows(sql`insert into job_logs (job_id, seq, line) select ${id}, g, 'l' from generate_series(1, 25000) g`);
    }
    await db.insert(auditLog).values([
      { at: ago(400), actorLabel: 'test', action: 'old.thing', targetType: 'test' },
      { at: ago(30), actorLabel: 'test', action: 'recent.thing', targetType: 'test' },
    ]);
    await db.insert(loginThrottle).values([
      { key: 'spent', failures: 3, windowStartedAt: ago(1), lockedUntil: null },
      { key: 'locked', failures: 9, windowStartedAt: ago(1), lockedUntil: new Date(Date.now() + DAY) },
      { key: 'fresh', failures: 1, windowStartedAt: new Date(), lockedUntil: null },
      { key: 'known-client', failures: 0, windowStartedAt: ago(200), lockedUntil: null },
    ]);

    const result = await sweepRetention(database, { jobDays: 90, auditDays: 365, throttleWindowMs: 15 * 60_000 });

    expect(result).toEqual({ jobs: 2, audit: 1, throttles: 1, artifacts: 0, artifactBlobs: 0 });
    const left = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(inArray(jobs.id, Object.values(ids)));
    expect(left.map((r) => r.id).sort()).toEqual([ids.recent, ids.running, ids.queued].sort());
    const logs = await database.rows<{ job_id: string; n: number }>(sql`select job_id, count(*)::int as n from job_logs group by job_id`);
    expect(Object.fromEntries(logs.map((r) => [r.job_id, Number(r.n)]))).toEqual({ [ids.recent]: 25000, [ids.running]: 25000 });
    const actions = (await db.select({ action: auditLog.action }).from(auditLog)).map((r) => r.action);
    expect(actions).not.toContain('old.thing');
    expect(actions).toContain('recent.thing');
    expect(actions).toContain('retention.sweep');
    const keys = (await db.select({ key: loginThrottle.key }).from(loginThrottle)).map((r) => r.key).sort();
    expect(keys).toEqual(['fresh', 'known-client', 'locked']);
    expect(await db.select().from(jobLogs).where(eq(jobLogs.jobId, ids.old))).toEqual([]);
  });
});
