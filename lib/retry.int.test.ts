// Retry re-runs a job as the person retrying: it needs the permission the job's kind needs, and it
// never replays an acknowledgement the original starter gave.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '@/db/schema';
import { type Actor, systemActor } from '@/lib/auth/actor';
import { ROLE_PERMISSIONS } from '@/lib/auth/permissions';
import { isAppError } from '@/lib/core/errors';
import { enqueue, retryJob } from '@/lib/jobs';
import { githubInstallJob, packageInstallJob } from '@/lib/packages/job-kinds';
import { skillImportJob } from '@/lib/skills/service/jobs';
import { startTestServices, type TestServices } from '@/test/helpers/services';

let t: TestServices;
const admin: Actor = { ...systemActor, kind: 'user', userId: null, label: 'retry-admin@example.com', role: 'admin', permissions: ROLE_PERMISSIONS.admin };
const operator: Actor = { ...admin, label: 'retry-operator@example.com', role: 'operator', permissions: ROLE_PERMISSIONS.operator };

beforeAll(async () => {
  t = await startTestServices({ worker: false });
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function failed(job: { id: string }) {
  await t.services.database.db.update(jobs).set({ state: 'failed', finishedAt: new Date(), error: 'failed on purpose' }).where(eq(jobs.id, job.id));
  return job.id;
}
async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    return isAppError(e) ? e.code : String(e);
  }
  return 'no error';
}

describe('retry', () => {
  it('an operator retrying an admin’s failed package install or GitHub install is refused', async () => {
    const pip = await failed(await enqueue(t.services.database, admin, packageInstallJob, { spec: 'pip:requests' }, { trusted: true }));
    const gh = await failed(await enqueue(t.services.database, admin, githubInstallJob, { repo: 'cli/cli' }, { trusted: true }));
    for (const id of [pip, gh]) expect(await refusal(retryJob(t.services.database, t.services.jobKinds, operator, id))).toBe('forbidden');
    const again = await retryJob(t.services.database, t.services.jobKinds, admin, pip);
    expect(again.retryOf).toBe(pip);
  });

  it('an operator retrying an admin’s failed skill import is refused', async () => {
    const id = await failed(await enqueue(t.services.database, admin, skillImportJob, { source: { kind: 'clawhub', ref: 'some-skill' } }, { trusted: true }));
    expect(await refusal(retryJob(t.services.database, t.services.jobKinds, operator, id))).toBe('forbidden');
  });

  it('an admin retrying an acknowledged import gets a job without the acknowledgement', async () => {
    const params = { source: { kind: 'clawhub' as const, ref: 'blocked-skill' }, acknowledge: { reason: 'reviewed the findings by hand' } };
    const id = await failed(await enqueue(t.services.database, admin, skillImportJob, params, { trusted: true }));
    const again = await retryJob(t.services.database, t.services.jobKinds, admin, id);
    expect(again.retryOf).toBe(id);
    expect(again.params).toMatchObject({ source: { kind: 'clawhub', ref: 'blocked-skill' } });
    expect(again.params).not.toHaveProperty('acknowledge');
  });
});
