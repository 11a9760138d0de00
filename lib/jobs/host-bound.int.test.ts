// test-phase: both engines. Its subject is which worker claims a host-bound job, a query on each engine.
// Host-bound jobs (installs into a host's runtimes) run only on a replica of the host they were
// queued on: a worker on another host passes over them, however old, and one on their host takes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Actor, ROLE_PERMISSIONS, systemActor } from '@/lib/auth';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { thisHost } from './host';
import { defineJobKind } from './kind';
import { enqueue, getJob, retryJob } from './queue';
import { JobWorker } from './worker';

const admin: Actor = { ...systemActor, kind: 'user', userId: null, label: 'tester@example.com', role: 'admin', permissions: ROLE_PERMISSIONS.admin };
const ELSEWHERE = 'other-host.skilldock.test';

const hostJob = defineJobKind({
  name: 'test.host-bound',
  title: () => 'changes its host',
  params: z.strictObject({ fail: z.boolean().default(false) }),
  concurrency: 1,
  maxAttempts: 1,
  resumable: false,
  hostBound: true,
  retryPermission: 'packages.write',
});

let t: TestServices;
let other: JobWorker | undefined;
const ranOn = new Map<string, string>();

beforeAll(async () => {
  t = await startTestServices();
  t.services.jobKinds.register(hostJob, async (ctx) => {
    ranOn.set(ctx.job.id, ctx.job.host ?? 'any');
    if (ctx.params.fail) throw new Error('failed on purpose');
    return { ok: true };
  });
});
afterAll(async () => {
  await other?.stop(5_000);
  await t?.stop();
});

const stateOf = async (id: string) => (await getJob(t.services.database, id)).state;

describe('host-bound jobs', () => {
  it('are queued for the host that queued them, and run there', async () => {
    const job = await enqueue(t.services.database, admin, hostJob, {}, { trusted: true });
    expect(job.host).toBe(thisHost());
    await waitFor(async () => (await stateOf(job.id)) === 'succeeded', 'the job on this host');
  });

  it('are passed over by a worker on another host, even when older, and taken by a worker on theirs', async () => {
    const theirs = await enqueue(t.services.database, admin, hostJob, {}, { trusted: true, host: ELSEWHERE });
    const mine = await enqueue(t.services.database, admin, hostJob, {}, { trusted: true });
    // The older job would be claimed first by a worker allowed to run it: this host's worker ran the younger one.
    await waitFor(async () => (await stateOf(mine.id)) === 'succeeded', 'the younger job on this host');
    expect(await stateOf(theirs.id)).toBe('queued');
    expect(ranOn.has(theirs.id)).toBe(false);
    other = new JobWorker(t.services.database, t.services.hub, t.services.jobKinds, { concurrency: 1, leaseMs: 10_000, host: ELSEWHERE });
    await other.start();
    await waitFor(async () => (await stateOf(theirs.id)) === 'succeeded', 'the job on its own host');
    expect(ranOn.get(theirs.id)).toBe(ELSEWHERE);
  });

  it('keep their host when retried from a replica on another host', async () => {
    const failed = await enqueue(t.services.database, admin, hostJob, { fail: true }, { trusted: true, host: ELSEWHERE });
    await waitFor(async () => (await stateOf(failed.id)) === 'failed', 'the failing job on its host');
    expect(ranOn.get(failed.id)).toBe(ELSEWHERE);
    // Retried through this replica (another host): the retry still names the host it changes.
    const retry = await retryJob(t.services.database, t.services.jobKinds, admin, failed.id);
    expect(retry.host).toBe(ELSEWHERE);
  });
});
