// The gateway's reads of an agent over real skills in a real root: no path (list, read, file,
// prompt, explain) exposes a skill the list excludes; the ETag answers 304 until an input changes
// (a skill added in a root, an allowlist edit, an env value that flips gating); escaping in the
// prompt; agent-scoped tokens; and the batch what-if and save.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUT as entryRoute } from '@/app/api/v1/skills/entry/route';
import { GET as listSkillsRoute } from '@/app/api/v1/skills/route';
import { createToken } from '@/lib/auth/tokens';
import { agentsClient } from '@/test/helpers/agents-api';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';
import { apiUser } from '@/test/helpers/api';
import { auditRows, skillsClient } from '@/test/helpers/skills-api';

let t: AgentsSetup;
const SECRET_DESC = 'TOPSECRET-DESCRIPTION of the hidden skill';

beforeAll(async () => {
  t = await startAgentsSetup('agents-gw');
  t.write('github', 'Work with GitHub.', { files: { 'scripts/run.sh': '#!/bin/sh\necho github\n' } });
  t.write('hidden', SECRET_DESC, { files: { 'notes.txt': 'TOPSECRET-FILE' } });
  t.write('xml-chars', `Use <b> & "quotes" 'apos' here.`);
  t.write('keyed', 'Needs a key.', { metadata: { openclaw: { requires: { env: ['SKD_GW_TOKEN'] } } } });
  await t.refresh();
  expect((await t.api.create({ id: 'gw', name: 'Gateway', skills: ['github', 'xml-chars', 'keyed', '<odd & "name">'] })).status).toBe(201);
  expect((await t.api.create({ id: 'other', name: 'Other', skills: ['hidden'] })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('a skill outside the list is never exposed', () => {
  it('not in the list, not in the prompt', async () => {
    const r = await t.api.skills('gw');
    expect(r.status).toBe(200);
    expect(r.body.skills.map((s: { name: string }) => s.name)).toEqual(['github', 'xml-chars']);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain('hidden');
    expect(text).not.toContain('TOPSECRET');
    const gh = r.body.skills[0];
    expect(gh).toMatchObject({ location: path.join(t.root, 'github', 'SKILL.md'), skillDir: path.join(t.root, 'github'), env: [] });
  });

  it('reads and files answer 404 with the message a missing skill gets', async () => {
    const hidden = await t.api.skill('gw', 'hidden');
    const absent = await t.api.skill('gw', 'absent');
    expect([hidden.status, absent.status]).toEqual([404, 404]);
    expect(hidden.body.error.message.replace('"hidden"', '"X"')).toBe(absent.body.error.message.replace('"absent"', '"X"'));
    expect(JSON.stringify(hidden.body)).not.toContain('TOPSECRET');
    const file = await t.api.file('gw', 'hidden', 'notes.txt');
    const absentFile = await t.api.file('gw', 'absent', 'notes.txt');
    expect([file.status, absentFile.status]).toEqual([404, 404]);
    expect(file.body.error.message.replace('"hidden"', '"X"')).toBe(absentFile.body.error.message.replace('"absent"', '"X"'));
    // The same skill is served to the agent whose list names it.
    const ok = await t.api.file('other', 'hidden', 'notes.txt');
    expect(ok.status).toBe(200);
    expect(ok.body.content).toBe('TOPSECRET-FILE');
  });

  it('explain marks it excluded with the rule and nothing else of it', async () => {
    const e = await t.api.explain('gw');
    const hidden = e.body.traces.find((x: { name: string }) => x.name === 'hidden');
    expect(hidden).toEqual({
      name: 'hidden',
      excluded: true,
      effective: false,
      failedAt: 'allowed',
      copies: [],
      steps: [{ step: 'allowed', pass: false, detail: `"hidden" is not on the agent's own list (it replaces the defaults)` }],
    });
    expect(JSON.stringify(e.body)).not.toContain('TOPSECRET');
    expect(JSON.stringify(e.body)).not.toContain(path.join(t.root, 'hidden'));
  });

  it('serves SKILL.md, the file list and a file of an allowed skill; a path outside it is refused', async () => {
    const r = await t.api.skill('gw', 'github');
    expect(r.status).toBe(200);
    expect(r.body.skillMd).toContain('name: github');
    expect(r.body.files.map((f: { path: string }) => f.path).sort()).toEqual(['SKILL.md', 'scripts/run.sh']);
    const f = await t.api.file('gw', 'github', 'scripts/run.sh');
    expect(f.body).toMatchObject({ path: 'scripts/run.sh', binary: false, content: '#!/bin/sh\necho github\n' });
    for (const p of ['../hidden/notes.txt', '/etc/passwd', 'scripts/../../hidden/notes.txt']) {
      const bad = await t.api.file('gw', 'github', p);
      expect(bad.status, p).toBe(404);
      expect(JSON.stringify(bad.body)).not.toContain('TOPSECRET');
    }
  });
});

describe('the prompt', () => {
  it('escapes the five XML characters and costs its own length', async () => {
    const r = await t.api.skills('gw');
    const p = r.body.prompt;
    expect(p.text).toContain(`    <description>Use &lt;b&gt; &amp; &quot;quotes&quot; &apos;apos&apos; here.</description>`);
    expect(p.text).not.toContain('<b>');
    expect(p.chars).toBe(p.text.length);
    expect(p.tokens).toBe(Math.ceil(p.text.length / 4));
    expect(p).toMatchObject({ form: 'full', truncated: false, included: ['github', 'xml-chars'], cut: [] });
    expect(p.text.startsWith('\n\nThe following skills provide specialized instructions for specific tasks.\n')).toBe(true);
    const agent = await t.api.get('gw');
    expect(agent.body.warnings).toEqual([expect.stringContaining('"<odd & "name">"')]);
    expect(p.text).not.toContain('odd');
  });
});

describe('ETag and If-None-Match', () => {
  it('answers 304 until an input changes, then a new version', async () => {
    const first = await t.api.skills('gw');
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(`"${first.body.version}"`);
    const same = await t.api.skills('gw', etag);
    expect(same.status).toBe(304);
    expect(same.body).toBeNull();
    expect(same.headers.get('etag')).toBe(etag);
    // A rebuild of the catalog that changes nothing keeps the version.
    await t.refresh();
    expect((await t.api.skills('gw', etag)).status).toBe(304);

    // A skill added in a root: a new version for an agent it reaches, none for one whose list leaves it out.
    expect((await t.api.create({ id: 'open', name: 'Open' })).status).toBe(201);
    const open = (await t.api.skills('open')).headers.get('etag')!;
    t.write('late', 'Arrives later.');
    await t.refresh();
    expect((await t.api.skills('gw', etag)).status).toBe(304);
    const openAfter = await t.api.skills('open', open);
    expect(openAfter.status).toBe(200);
    expect(openAfter.body.skills.map((s: { name: string }) => s.name)).toContain('late');
    const agent = (await t.api.get('gw')).body;
    expect((await t.api.patch('gw', { revision: agent.revision, skills: [...agent.skills, 'late'] })).status).toBe(200);
    const afterEdit = await t.api.skills('gw', etag);
    expect(afterEdit.status).toBe(200);
    expect(afterEdit.body.skills.map((s: { name: string }) => s.name)).toContain('late');
    const etag2 = afterEdit.headers.get('etag')!;
    expect(etag2).not.toBe(etag);

    // The skill changes in its root.
    t.write('late', 'Arrives later, now rewritten.');
    await t.refresh();
    const changed = await t.api.skills('gw', etag2);
    expect(changed.status).toBe(200);
    const etag3 = changed.headers.get('etag')!;
    expect(etag3).not.toBe(etag2);

    // An env value that flips gating: `keyed` becomes eligible once its key is configured.
    expect(changed.body.skills.map((s: { name: string }) => s.name)).not.toContain('keyed');
    const set = await t.skills.put(entryRoute, '/api/v1/skills/entry', { skillKey: 'keyed', env: { SKD_GW_TOKEN: 'a-value' } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const flipped = await t.api.skills('gw', etag3);
    expect(flipped.status).toBe(200);
    expect(flipped.body.skills).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'keyed', env: ['SKD_GW_TOKEN'] })]));
    expect(JSON.stringify(flipped.body)).not.toContain('a-value');
    expect((await t.api.skills('gw', flipped.headers.get('etag')!)).status).toBe(304);
  });

  it('the skill list route is unaffected by the agents (the catalog still has every skill)', async () => {
    const r = await t.skills.get(listSkillsRoute, '/api/v1/skills');
    expect(r.body.skills.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['hidden', 'github']));
  });
});

describe('agent-scoped tokens', () => {
  it('reach the gateway routes of their agents only', async () => {
    // Only agents.write (an admin) mints a token that stands for an agent.
    const { actor } = await apiUser(t.ts.services, { email: 'scoped@example.com', role: 'admin', tokenName: 'plain', permissions: ['agents.read'] });
    const db = t.ts.services.database.db;
    const refused = createToken(db, actor, { name: 'wide', permissions: ['agents.read', 'skills.read'], expiresInDays: 1, agentIds: ['gw'] });
    await expect(refused).rejects.toMatchObject({ code: 'validation' });
    const { token, record } = await createToken(db, actor, { name: 'gw only', permissions: ['agents.read'], expiresInDays: 1, agentIds: ['gw'] });
    expect(record.agentIds).toEqual(['gw']);
    const scoped = agentsClient(token);
    expect((await scoped.skills('gw')).status).toBe(200);
    expect((await scoped.skill('gw', 'github')).status).toBe(200);
    expect((await scoped.explain('gw')).status).toBe(200);
    for (const r of [
      await scoped.skills('other'),
      await scoped.skill('other', 'hidden'),
      await scoped.list(),
      await scoped.get('gw'),
      await scoped.defaults(),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
    }
    const skillsRoute = await skillsClient(t.ts.services, token).get(listSkillsRoute, '/api/v1/skills');
    expect(skillsRoute.status).toBe(403);
  });
});

describe('batch allowlist edits', () => {
  it('previews gains, losses and cost, then saves all or nothing', async () => {
    await t.api.create({ id: 'b1', name: 'B1', skills: ['github'] });
    await t.api.create({ id: 'b2', name: 'B2', skills: [] });
    const [b1, b2] = [(await t.api.get('b1')).body, (await t.api.get('b2')).body];
    const changes = [
      { agentId: 'b1', revision: b1.revision, skills: ['xml-chars'] },
      { agentId: 'b2', revision: b2.revision, skills: ['github', 'nope'] },
    ];
    const p = await t.api.preview(changes);
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const [p1, p2] = p.body.items;
    expect(p1).toMatchObject({ agentId: 'b1', gained: ['xml-chars'], lost: ['github'], stale: false, changed: true });
    expect(p2).toMatchObject({ agentId: 'b2', gained: ['github'], lost: [], warnings: [expect.stringContaining('"nope"')] });
    expect(p2.prompt.before).toEqual({ chars: 0, tokens: 0, skills: 0 });
    expect(p2.prompt.after.chars).toBe((await t.api.skills('b1')).body.prompt.chars);
    // The what-if wrote nothing.
    expect(await t.api.names('b1')).toEqual(['github']);

    const stale = await t.api.save([changes[0], { ...changes[1], revision: b2.revision - 1 }]);
    expect(stale.status).toBe(409);
    expect(await t.api.names('b1')).toEqual(['github']);

    const before = (await auditRows(t.ts.services, 'agent.update')).length;
    const saved = await t.api.save([...changes, { agentId: 'other', revision: (await t.api.get('other')).body.revision, skills: ['hidden'] }]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.changed).toBe(2);
    expect(await t.api.names('b1')).toEqual(['xml-chars']);
    expect(await t.api.names('b2')).toEqual(['github']);
    const rows = (await auditRows(t.ts.services, 'agent.update')).slice(before);
    expect(rows.map((r) => r.target_id).sort()).toEqual(['b1', 'b2']);
    expect(fs.existsSync(t.root)).toBe(true);
  });
});
