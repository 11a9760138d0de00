// test-phase: both engines. Its subject is the queue's cancel fence, an update race on each engine.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditLog, jobs } from '@/db/schema';
import { type Actor, ROLE_PERMISSIONS, systemActor } from '@/lib/auth';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { defineJobKind, jobSpec } from './kind';
import { cancelJob, enqueue, enqueueTree, getJob, readJobLogs } from './queue';

const admin: Actor = { ...systemActor, kind: 'user', userId: null, label: 'tester@example.com', role: 'admin', permissions: ROLE_PERMISSIONS.admin };

let t: TestServices;
const gates = new Map<string, () => void>();

// A kind no worker here runs stays queued; the gate kind runs until the test opens its gate.
const unclaimedJob = defineJobKind({
  name: 'test.unclaimed',
  title: () => 'never claimed here',
  params: z.strictObject({}),
  concurrency: 1,
  maxAttempts: 1,
  resumable: false,
});
const gateJob = defineJobKind({
  name: 'test.gate',
  title: () => 'waits for its gate',
  params: z.strictObject({}),
  concurrency: 4,
  maxAttempts: 1,
  resumable: false,
});

beforeAll(async () => {
  t = await startTestServices();
  t.services.jobKinds.register(gateJob, async (ctx) => {
    await new Promise<void>((resolve, reject) => {
      gates.set(ctx.job.id, resolve);
      ctx.signal.addEventListener('abort', () => reject(new Error('aborted')));
    });
    ctx.log('after the gate');
    return { done: true };
  });
});
afterAll(async () => t?.stop());

const stateOf = async (id: string) => (await getJob(t.services.database, id)).state;
const running = (id: string) => waitFor(async () => gates.has(id) && (await stateOf(id)) === 'running', `job ${id} to run`);

describe('cancel and lease fencing', () => {
  it('cancels the queued children of a canceled parent and asks running ones to stop', async () => {
    const { parent, children } = await enqueueTree(t.services.database, admin, jobSpec(unclaimedJob, {}), [jobSpec(unclaimedJob, {}), jobSpec(gateJob, {})], {
      trusted: true,
    });
    const [queuedChild, runningChild] = children;
    await running(runningChild.id);
    await cancelJob(t.services.database, admin, parent.id);
    expect(await stateOf(parent.id)).toBe('canceled');
    expect(await stateOf(queuedChild.id)).toBe('canceled');
    await waitFor(async () => (await stateOf(runningChild.id)) === 'canceled', 'the running child to stop');
    const rows = await t.services.database.db.select().from(auditLog).where(eq(auditLog.targetId, parent.id));
    const cancel = rows.find((r) => r.action === 'job.cancel');
    expect(cancel?.after).toMatchObject({ children: { canceled: [queuedChild.id], stopping: [runningChild.id] } });
  });

  it('does not let an attempt whose lease was re-claimed finish the job or write its log', async () => {
    const job = await enqueue(t.services.database, admin, gateJob, {}, { trusted: true });
    await running(job.id);
    // The lease expired and the job was claimed again (same worker, next attempt) while attempt 1 still runs.
    await t.services.database.db.update(jobs).set({ attempts: 2 }).where(eq(jobs.id, job.id));
    gates.get(job.id)?.();
    await waitFor(async () => !t.services.worker!.activeJobIds.includes(job.id), 'attempt 1 to end');
    const after = await getJob(t.services.database, job.id);
    expect(after.state).toBe('running');
    expect(after.attempts).toBe(2);
    const lines = (await readJobLogs(t.services.database, job.id, 0, 1000)).map((l) => l.line);
    expect(lines).not.toContain('after the gate');
    expect(lines.some((l) => l.includes('succeeded'))).toBe(false);
  });
});
