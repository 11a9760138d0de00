// Per-skill config entries through PUT /api/v1/skills/entry: env values and the primaryEnv apiKey are
// sealed in the database, masked in answers and audit rows, and make a skill that requires them
// ready; a viewer reads but cannot write or import (PGlite and PostgreSQL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUT as entryRoute } from '@/app/api/v1/skills/entry/route';
import { POST as refreshRoute } from '@/app/api/v1/skills/refresh/route';
import { GET as listRoute } from '@/app/api/v1/skills/route';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { auditRows, type SkillsClient, skillMd, skillsClient, writeSkill } from '@/test/helpers/skills-api';

let t: TestServices;
let admin: SkillsClient;
let viewer: SkillsClient;
let tmp: string;

const GEMINI = 'gemini-key-plaintext-4b1d';
const PLACES = 'places-key-plaintext-9c2e';

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-skent-'));
  t = await startTestServices();
  setServices(Promise.resolve(t.services));
  admin = skillsClient(
    t.services,
    (await apiUser(t.services, { email: 'entry-admin@example.com', role: 'admin', tokenName: 'entries', permissions: ['skills.read', 'skills.write'] })).token,
  );
  viewer = skillsClient(
    t.services,
    (await apiUser(t.services, { email: 'entry-viewer@example.com', role: 'viewer', tokenName: 'read only', permissions: ['skills.read'] })).token,
  );
  const ws = path.join(tmp, 'ws');
  expect((await admin.settings({ workspaceDir: ws, personalDir: path.join(tmp, 'personal') })).status).toBe(200);
  const root = path.join(ws, 'skills');
  writeSkill(root, 'gemini-writer', {
    'SKILL.md': skillMd('gemini-writer', 'Writes with Gemini.', { metadata: { openclaw: { requires: { env: ['GEMINI_API_KEY'] } } } }),
  });
  writeSkill(root, 'places-finder', {
    'SKILL.md': skillMd('places-finder', 'Finds places.', { metadata: { openclaw: { requires: { env: ['PLACES_API_KEY'] }, primaryEnv: 'PLACES_API_KEY' } } }),
  });
  await admin.post(refreshRoute, '/api/v1/skills/refresh');
}, 60_000);
afterAll(async () => {
  await t?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const rawEntry = async (key: string) =>
  (await t.services.database.rows<{ row: string }>(sql`select row_to_json(e)::text as row from skill_entries e where skill_key = ${key}`))[0]?.row;

describe('skill config entries', () => {
  it('stores an env value sealed, answers and audits it as ***, and the skill that requires it turns ready', async () => {
    const missing = (await admin.skill('gemini-writer'))!;
    expect(missing).toMatchObject({ status: 'needs-setup', missing: { env: ['GEMINI_API_KEY'] } });
    expect(missing.reasons).toEqual([expect.stringMatching(/^missing env GEMINI_API_KEY\b/)]);
    const r = await admin.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'gemini-writer', env: { GEMINI_API_KEY: GEMINI } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      skillKey: 'gemini-writer',
      env: { GEMINI_API_KEY: '***' },
      apiKey: null,
      updatedBy: 'entry-admin@example.com (token "entries")',
    });
    expect(JSON.stringify(r.body)).not.toContain(GEMINI);

    const row = await rawEntry('gemini-writer');
    expect(row).toContain('GEMINI_API_KEY');
    expect(row).not.toContain(GEMINI);
    const [audit] = (await auditRows(t.services, 'skill.entry.update')).filter((a) => a.target_id === 'gemini-writer');
    expect(JSON.parse(audit.after!)).toMatchObject({ env: { GEMINI_API_KEY: '***' } });
    expect(`${audit.before}${audit.after}`).not.toContain(GEMINI);

    const s = (await admin.skill('gemini-writer'))!;
    expect(s).toMatchObject({ status: 'ready', eligible: true, missing: { env: [] } });
    expect((await admin.detail(s.id)).body.entry).toMatchObject({ env: { GEMINI_API_KEY: '***' } });

    // "***" sent back keeps the stored value; "" removes it and the skill needs setup again.
    expect(
      (await admin.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'gemini-writer', env: { GEMINI_API_KEY: '***' }, config: { model: 'pro' } })).body,
    ).toMatchObject({ env: { GEMINI_API_KEY: '***' }, config: { model: 'pro' } });
    expect(await admin.skill('gemini-writer')).toMatchObject({ status: 'ready' });
    expect((await admin.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'gemini-writer', env: { GEMINI_API_KEY: '' } })).body.env).toEqual({});
    expect(await admin.skill('gemini-writer')).toMatchObject({ status: 'needs-setup' });
    expect(await rawEntry('gemini-writer')).not.toContain(GEMINI);
  });

  it('treats apiKey as the primaryEnv value, sealed and masked the same way', async () => {
    expect(await admin.skill('places-finder')).toMatchObject({ status: 'needs-setup', primaryEnv: 'PLACES_API_KEY' });
    const r = await admin.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'places-finder', apiKey: PLACES });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ apiKey: '***', env: {} });
    expect(await rawEntry('places-finder')).not.toContain(PLACES);
    const [audit] = (await auditRows(t.services, 'skill.entry.update')).filter((a) => a.target_id === 'places-finder');
    expect(JSON.parse(audit.after!)).toMatchObject({ apiKey: '***' });
    expect(audit.after).not.toContain(PLACES);
    expect(await admin.skill('places-finder')).toMatchObject({ status: 'ready', eligible: true });
  });

  it('disables a skill through enabled: false', async () => {
    expect((await admin.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'places-finder', enabled: false })).body).toMatchObject({
      enabled: false,
      apiKey: '***',
    });
    expect(await admin.skill('places-finder')).toMatchObject({ status: 'disabled', disabled: true });
    expect((await admin.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'places-finder', enabled: true })).status).toBe(200);
    expect(await admin.skill('places-finder')).toMatchObject({ status: 'ready' });
  });

  it('lets a viewer read (200) but not edit an entry or import (403), changing nothing', async () => {
    const list = await viewer.get(listRoute, '/api/v1/skills');
    expect(list.status).toBe(200);
    expect(list.body.skills.map((s: { name: string }) => s.name).sort()).toEqual(['gemini-writer', 'places-finder']);
    const before = await rawEntry('places-finder');
    const put = await viewer.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'places-finder', apiKey: 'stolen' });
    expect(put.status).toBe(403);
    expect(await rawEntry('places-finder')).toBe(before);
    const imp = await viewer.startImport({ source: { kind: 'clawhub', ref: 'anything' } });
    expect(imp.status).toBe(403);
    const jobs = await t.services.database.rows<{ n: number }>(sql`select count(*)::int as n from jobs where kind = 'skill.import'`);
    expect(jobs[0].n).toBe(0);
    expect((await viewer.upload(Buffer.from('PK'))).status).toBe(403);
    expect((await viewer.settings({ gitAllowLocal: true })).status).toBe(403);
  });

  it('rejects malformed entries with 400', async () => {
    expect((await admin.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'gemini-writer', env: { '1BAD': 'x' } })).status).toBe(400);
    expect((await admin.put(entryRoute, '/api/v1/skills/entry', { skillKey: '../x' })).status).toBe(400);
  });
});
