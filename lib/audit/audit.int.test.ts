// test-phase: both engines. Its subject is the audit log as each engine keeps it.
// The audit log's query on a real database (PGlite and PostgreSQL): the action filter matches part of an
// action name, and LIKE wildcards in the filter are taken literally.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { type Actor, systemActor } from '../auth/actor';
import { listAudit, recordAudit } from './audit';
import { auditQuery } from './query';

let t: TestServices;
const actor: Actor = { ...systemActor, label: 'audit-test' };
const actionsOf = async (action: string) =>
  (await listAudit(t.services.database.db, auditQuery.parse({ action, limit: 500 }))).items.map((r) => r.action).sort();

beforeAll(async () => {
  t = await startTestServices({ worker: false });
  for (const action of ['user.create', 'user.update', 'token.create', 'skill.import', 'settings.runtime.update', 'pkg_x.install'])
    await recordAudit(t.services.database.db, actor, { action, targetType: 'test', targetId: action });
}, 60_000);
afterAll(async () => t?.stop());

describe('the audit action filter', () => {
  it('matches part of an action name, case-insensitively', async () => {
    expect(await actionsOf('user')).toEqual(['user.create', 'user.update']);
    expect(await actionsOf('create')).toEqual(['token.create', 'user.create']);
    expect(await actionsOf('RUNTIME')).toEqual(['settings.runtime.update']);
  });

  it('still finds a whole action name and a kind ending in a dot', async () => {
    expect(await actionsOf('user.create')).toEqual(['user.create']);
    expect(await actionsOf('user.')).toEqual(['user.create', 'user.update']);
  });

  it('takes % and _ literally', async () => {
    expect(await actionsOf('%')).toEqual([]);
    expect(await actionsOf('pkg_')).toEqual(['pkg_x.install']);
    expect(await actionsOf('user_create')).toEqual([]);
  });
});
