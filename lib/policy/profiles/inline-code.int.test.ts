// The inlineCode setting of a stored profile through the real API: a row saved before the setting
// existed loads with the balanced preset's value (the schema default), the editor's schema accepts
// each choice, and a saved choice decides `python3 -c`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { riskProfiles } from '@/db/schema';
import { createProfileInput } from '@/lib/api/policy-schemas';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { type PolicyClient, policyClient } from '@/test/helpers/policy-api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { profileRulesSchema } from '../types';
import { PRESET_RULES } from './presets';

let ts: TestServices;
let admin: PolicyClient;

beforeAll(async () => {
  ts = await startTestServices({ worker: false });
  setServices(Promise.resolve(ts.services));
  const a = await apiUser(ts.services, {
    email: 'inline-admin@example.com',
    role: 'admin',
    tokenName: 'inline',
    permissions: ['policy.read', 'policy.write'],
  });
  admin = policyClient(a.token);
  // The rules of a profile as stored before inlineCode existed: every other field, this one absent.
  const { inlineCode: _absent, ...older } = profileRulesSchema.parse({ allowedCommands: ['*'], approvalForMedium: true });
  expect('inlineCode' in older).toBe(false);
  await ts.services.database.db
    .insert(riskProfiles)
    .values({ name: 'older', description: 'saved long ago', rules: older, createdBy: 'test', updatedBy: 'test' });
}, 120_000);
afterAll(async () => {
  await ts?.stop();
});

describe('the inlineCode setting of a stored profile', () => {
  it("loads a profile stored before the setting with the balanced preset's value", async () => {
    const r = await admin.get('older');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.rules.inlineCode).toBe(PRESET_RULES.balanced.inlineCode);
    expect(r.body.rules.approvalForMedium).toBe(true);
    const e = await admin.evaluate({ command: 'python3 -c "print(1)"', profile: 'older' });
    expect(e.body).toMatchObject({ decision: 'allow' });
  });

  it('the form schema (the API’s) accepts each choice and refuses another; a saved choice decides python3 -c', async () => {
    for (const v of ['allow', 'approval', 'deny']) expect(createProfileInput.safeParse({ name: 'x', rules: { inlineCode: v } }).success, v).toBe(true);
    expect(createProfileInput.safeParse({ name: 'x', rules: { inlineCode: 'sometimes' } }).success).toBe(false);
    const now = await admin.get('older');
    const p = await admin.patch('older', { revision: now.body.revision, rules: { ...now.body.rules, inlineCode: 'approval' } });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect((await admin.get('older')).body.rules.inlineCode).toBe('approval');
    const e = await admin.evaluate({ command: 'python3 -c "print(1)"', profile: 'older' });
    expect(e.body).toMatchObject({ decision: 'approval', rule: 'inline_code' });
    expect((await admin.patch('older', { revision: now.body.revision + 1, rules: { inlineCode: 'never' } })).status).toBe(400);
  });
});
