// The agents API over real skills in a real root: the allowlist truth table (defaults omitted /
// empty / non-empty × agent omitted / empty / non-empty), defaults changed after agents exist,
// deny over allow, unknown names kept and warned, bad input refused with nothing written, and
// concurrent edits refused instead of overwritten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from '@/db/schema';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';
import { auditRows } from '@/test/helpers/skills-api';

let t: AgentsSetup;
const ELIGIBLE = ['docs-search', 'github', 'weather'];

beforeAll(async () => {
  t = await startAgentsSetup('agents-api');
  for (const n of ELIGIBLE) t.write(n, `The ${n} skill.`);
  t.write('needs-key', 'Needs a key.', { metadata: { openclaw: { requires: { env: ['SKD_AGENTS_ABSENT_KEY'] } } } });
  t.write('user-only', 'Only users invoke it.', { extra: 'disable-model-invocation: true' });
  await t.refresh();
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

const agentCount = async () => (await t.ts.services.database.db.select().from(agents)).length;

describe('the allowlist truth table through the API', () => {
  beforeAll(async () => {
    expect((await t.api.create({ id: 'inherits', name: 'Inherits' })).status).toBe(201);
    expect((await t.api.create({ id: 'none', name: 'None', skills: [] })).status).toBe(201);
    expect((await t.api.create({ id: 'own', name: 'Own', skills: ['docs-search'] })).status).toBe(201);
  });

  const table: [string, string[] | null, Record<string, string[]>][] = [
    ['omitted', null, { inherits: ELIGIBLE, none: [], own: ['docs-search'] }],
    ['["github","weather"]', ['github', 'weather'], { inherits: ['github', 'weather'], none: [], own: ['docs-search'] }],
    ['[]', [], { inherits: [], none: [], own: ['docs-search'] }],
    // Back to unrestricted: the agents created before every change follow the current defaults.
    ['omitted again', null, { inherits: ELIGIBLE, none: [], own: ['docs-search'] }],
  ];
  for (const [label, defaults, expected] of table) {
    it(`defaults ${label}`, async () => {
      const r = await t.api.setDefaults(defaults);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ skills: defaults, unrestricted: defaults === null });
      for (const [id, names] of Object.entries(expected)) expect(await t.api.names(id), `${id} with defaults ${label}`).toEqual(names);
    });
  }

  it('leaves out ineligible skills and skills the model may not invoke, even when unrestricted', async () => {
    const e = await t.api.explain('inherits');
    const byName = Object.fromEntries(e.body.traces.map((x: { name: string }) => [x.name, x]));
    expect(byName['needs-key']).toMatchObject({ effective: false, failedAt: 'eligible', excluded: false });
    expect(byName['user-only']).toMatchObject({ effective: false, failedAt: 'model-invocable' });
    expect(byName.github).toMatchObject({ effective: true, failedAt: null });
    expect(byName.github.steps.map((s: { step: string }) => s.step)).toEqual([
      'found',
      'copy',
      'usable',
      'eligible',
      'installed',
      'allowed',
      'enabled',
      'model-invocable',
      'prompt',
      'policy',
    ]);
  });

  it('skills: null on PATCH returns an agent to inheriting', async () => {
    await t.api.setDefaults(['weather']);
    const own = await t.api.get('own');
    const r = await t.api.patch('own', { revision: own.body.revision, skills: null });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ skills: null, inheritsDefaults: true });
    expect(await t.api.names('own')).toEqual(['weather']);
    await t.api.setDefaults(null);
  });
});

describe('lists', () => {
  it('deny wins over the agent list and over unrestricted', async () => {
    expect((await t.api.create({ id: 'deny-list', name: 'D', skills: ['github', 'weather'], denySkills: ['weather'] })).status).toBe(201);
    expect(await t.api.names('deny-list')).toEqual(['github']);
    expect((await t.api.create({ id: 'deny-all', name: 'D', denySkills: ['github'] })).status).toBe(201);
    expect(await t.api.names('deny-all')).toEqual(['docs-search', 'weather']);
    const e = await t.api.explain('deny-list', 'weather');
    expect(e.body.traces).toEqual([expect.objectContaining({ name: 'weather', excluded: true, failedAt: 'allowed' })]);
    expect(e.body.traces[0].steps[0].detail).toContain('deny list');
  });

  it('folds duplicates, keeps unknown names and warns about them', async () => {
    const r = await t.api.create({ id: 'folded', name: 'F', skills: ['github', ' github', 'github', 'no-such-skill'], denySkills: ['gone', 'gone'] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.skills).toEqual(['github', 'no-such-skill']);
    expect(r.body.denySkills).toEqual(['gone']);
    expect(r.body.warnings).toEqual([expect.stringContaining('"gone"'), expect.stringContaining('"no-such-skill"')]);
    expect(await t.api.names('folded')).toEqual(['github']);
    const d = await t.api.setDefaults(['weather', 'missing-default']);
    expect(d.body.warnings).toEqual([expect.stringContaining('"missing-default"')]);
    await t.api.setDefaults(null);
  });

  it('a per-agent budget cuts the prompt and the list, in name order', async () => {
    expect((await t.api.create({ id: 'budget', name: 'B', budget: { maxSkills: 2, maxChars: 18_000 } })).status).toBe(201);
    const r = await t.api.skills('budget');
    expect(r.body.prompt).toMatchObject({ truncated: true, included: ['docs-search', 'github'], cut: ['weather'] });
    expect(r.body.skills.map((s: { name: string }) => s.name)).toEqual(['docs-search', 'github']);
    expect(r.body.prompt.chars).toBe(r.body.prompt.text.length);
    expect(r.body.prompt.text.startsWith('⚠️ Skills truncated: included 2 of 3.')).toBe(true);
  });
});

describe('bad input changes nothing', () => {
  it('refuses ids with path characters and reserved ids', async () => {
    const before = await agentCount();
    for (const id of ['a/b', '..', '../x', 'A-upper', '', '-lead', 'x'.repeat(65), 'defaults', 'allowlists', 'matrix']) {
      const r = await t.api.create({ id, name: 'X' });
      expect(r.status, id).toBe(400);
      expect(r.body.error.code).toBe('validation');
    }
    expect((await t.api.get('..')).status).toBe(400);
    expect((await t.api.skills('a/b')).status).toBe(400);
    expect(await agentCount()).toBe(before);
  });

  it('refuses a 10,000-entry list, control characters and over-long names with a clear message', async () => {
    const before = await agentCount();
    const huge = Array.from({ length: 10_000 }, (_, i) => `skill-${i}`);
    const r = await t.api.create({ id: 'huge', name: 'H', skills: huge });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('at most 1000 skill names');
    expect((await t.api.create({ id: 'ctl', name: 'C', skills: ['bad\u0007name'] })).status).toBe(400);
    expect((await t.api.create({ id: 'long', name: 'L', skills: ['x'.repeat(129)] })).status).toBe(400);
    const d = await t.api.defaults();
    expect((await t.api.putDefaults({ revision: d.body.revision, skills: huge })).status).toBe(400);
    expect((await t.api.defaults()).body.revision).toBe(d.body.revision);
    expect(await agentCount()).toBe(before);
  });

  it('refuses a budget of 0 or below', async () => {
    for (const budget of [
      { maxSkills: 0, maxChars: 100 },
      { maxSkills: 5, maxChars: 0 },
      { maxSkills: -1, maxChars: 100 },
      { maxSkills: 5, maxChars: -20 },
    ]) {
      const r = await t.api.create({ id: 'budget-bad', name: 'B', budget });
      expect(r.status, JSON.stringify(budget)).toBe(400);
    }
    expect((await t.api.get('budget-bad')).status).toBe(404);
  });

  it('an unknown agent is 404 on every route, saying it does not fall back to the defaults', async () => {
    for (const r of [await t.api.get('ghost'), await t.api.skills('ghost'), await t.api.explain('ghost'), await t.api.skill('ghost', 'github')]) {
      expect(r.status).toBe(404);
      expect(r.body.error.message).toContain('do not fall back to the defaults');
    }
    expect((await t.api.patch('ghost', { revision: 1, name: 'x' })).status).toBe(404);
    expect((await t.api.remove('ghost')).status).toBe(404);
  });

  it('a duplicate id is 409 and keeps the first agent', async () => {
    const r = await t.api.create({ id: 'inherits', name: 'Second' });
    expect(r.status).toBe(409);
    expect((await t.api.get('inherits')).body.name).toBe('Inherits');
  });
});

describe('concurrent edits', () => {
  it('the second edit from the same revision is 409 and does not overwrite the first', async () => {
    const a = (await t.api.create({ id: 'race', name: 'Race', skills: ['github'] })).body;
    const [one, two] = await Promise.all([
      t.api.patch('race', { revision: a.revision, skills: ['weather'] }),
      t.api.patch('race', { revision: a.revision, skills: ['docs-search'] }),
    ]);
    expect([one.status, two.status].sort()).toEqual([200, 409]);
    const winner = one.status === 200 ? one : two;
    const loser = one.status === 200 ? two : one;
    expect(loser.body.error.code).toBe('conflict');
    const now = (await t.api.get('race')).body;
    expect(now).toMatchObject({ skills: winner.body.skills, revision: a.revision + 1 });
    const stale = await t.api.patch('race', { revision: a.revision, name: 'Late' });
    expect(stale.status).toBe(409);
    expect((await t.api.get('race')).body.name).toBe('Race');
  });

  it('the defaults refuse a stale revision', async () => {
    const d = (await t.api.defaults()).body;
    expect((await t.api.putDefaults({ revision: d.revision, skills: ['github'] })).status).toBe(200);
    const stale = await t.api.putDefaults({ revision: d.revision, skills: ['weather'] });
    expect(stale.status).toBe(409);
    expect((await t.api.defaults()).body.skills).toEqual(['github']);
    await t.api.setDefaults(null);
  });

  it('audits every write with before and after', async () => {
    const rows = (await auditRows(t.ts.services, 'agent.update')).filter((r) => r.target_id === 'race');
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].before!)).toMatchObject({ skills: ['github'] });
    expect(JSON.parse(rows[0].after!).skills).not.toEqual(['github']);
    expect((await t.api.remove('race')).status).toBe(200);
    expect((await auditRows(t.ts.services, 'agent.delete')).map((r) => r.target_id)).toContain('race');
    expect((await t.api.get('race')).status).toBe(404);
  });
});
