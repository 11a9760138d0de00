// The console's aggregated agent reads over real skills in a real root: the list's summaries (scope,
// deny count, effective count and a prompt cost that is the rendered length), the matrix's lists,
// which agents can use a skill and the rule that blocks the others, and the budget planner (each
// skill's cost adds up to the rendered catalog; a budget to try compacts, then cuts, in name order).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as budgetRoute } from '@/app/api/v1/agents/[id]/budget/route';
import { GET as matrixRoute } from '@/app/api/v1/agents/allowlists/matrix/route';
import { GET as skillRoute } from '@/app/api/v1/agents/allowlists/skill/route';
import { GET as summaryRoute } from '@/app/api/v1/agents/allowlists/summary/route';
import { agentsClient } from '@/test/helpers/agents-api';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';
import { apiUser } from '@/test/helpers/api';

let t: AgentsSetup;
const NAMES = ['alpha', 'bravo', 'charlie'];

beforeAll(async () => {
  t = await startAgentsSetup('agent-views');
  for (const n of NAMES) t.write(n, `The ${n} skill <with & escapes>.`);
  t.write('needs-key', 'Needs a key.', { metadata: { openclaw: { requires: { env: ['SKD_VIEWS_ABSENT_KEY'] } } } });
  await t.refresh();
  expect((await t.api.create({ id: 'inherits', name: 'Inherits', denySkills: ['charlie'] })).status).toBe(201);
  expect((await t.api.create({ id: 'own', name: 'Own', skills: ['alpha', 'ghost'] })).status).toBe(201);
  expect((await t.api.create({ id: 'none', name: 'None', skills: [] })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

const summary = () => t.api.send(summaryRoute, 'GET', '/api/v1/agents/allowlists/summary');
const matrix = () => t.api.send(matrixRoute, 'GET', '/api/v1/agents/allowlists/matrix');
const bySkill = (name: string) => t.api.send(skillRoute, 'GET', `/api/v1/agents/allowlists/skill?name=${encodeURIComponent(name)}`);
const budget = (id: string, qs = '') => t.api.send(budgetRoute, 'GET', `/api/v1/agents/${id}/budget${qs}`, { params: { id } });

describe('summaries', () => {
  it("gives each agent's scope, deny count and a prompt cost equal to the gateway's", async () => {
    const r = await summary();
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.defaults).toMatchObject({ unrestricted: true, skills: null });
    expect(r.body.catalogSkills).toBe(4);
    const by = Object.fromEntries(r.body.items.map((i: { id: string }) => [i.id, i]));
    expect(by.inherits).toMatchObject({ scope: { kind: 'inherits' }, denyCount: 1, effective: { count: 2 } });
    expect(by.own).toMatchObject({ scope: { kind: 'own', count: 2 }, denyCount: 0, effective: { count: 1 } });
    expect(by.own.warnings).toEqual([expect.stringContaining('"ghost"')]);
    expect(by.none).toMatchObject({ scope: { kind: 'none' }, effective: { count: 0, chars: 0 } });
    const gw = await t.api.skills('inherits');
    expect(by.inherits.effective).toMatchObject({ chars: gw.body.prompt.text.length, tokens: gw.body.prompt.tokens, version: gw.body.version });
  });

  it('follows a change of the defaults', async () => {
    await t.api.setDefaults(['bravo']);
    const by = Object.fromEntries((await summary()).body.items.map((i: { id: string }) => [i.id, i]));
    expect(by.inherits.effective.count).toBe(1);
    expect(by.own.effective.count).toBe(1);
    await t.api.setDefaults(null);
  });
});

describe('matrix', () => {
  it("lists the catalog's skills in name order and each agent's own lists and revision", async () => {
    const r = await matrix();
    expect(r.status).toBe(200);
    expect(r.body.skills.map((s: { name: string }) => s.name)).toEqual(['alpha', 'bravo', 'charlie', 'needs-key']);
    expect(r.body.skills[0]).toMatchObject({ source: 'workspace', status: 'ready' });
    expect(r.body.skills.find((s: { name: string }) => s.name === 'needs-key').status).toBe('needs-setup');
    const own = r.body.agents.find((a: { id: string }) => a.id === 'own');
    expect(own).toMatchObject({ skills: ['alpha', 'ghost'], inheritsDefaults: false, denySkills: [] });
    const now = await t.api.get('own');
    expect(own.revision).toBe(now.body.revision);
    expect(r.body.agents.find((a: { id: string }) => a.id === 'inherits')).toMatchObject({ skills: null, inheritsDefaults: true, denySkills: ['charlie'] });
  });
});

describe("a skill's agents", () => {
  it('says which agents get it and the rule that keeps it from the others', async () => {
    const r = await bySkill('charlie');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const by = Object.fromEntries(r.body.items.map((i: { agentId: string }) => [i.agentId, i]));
    expect(by.inherits).toMatchObject({ effective: false, excluded: true, failedAt: 'allowed' });
    expect(by.inherits.rule).toContain('deny list');
    expect(by.own).toMatchObject({ effective: false, excluded: true });
    expect(by.own.rule).toContain("not on the agent's own list");
    expect(by.none.rule).toContain('empty');
    expect(r.body.usable).toBe(0);
    const a = await bySkill('alpha');
    expect(a.body.usable).toBe(2);
    const k = await bySkill('needs-key');
    expect(k.body.items.find((i: { agentId: string }) => i.agentId === 'inherits')).toMatchObject({ excluded: false, failedAt: 'eligible' });
  });

  it('is 404 for a skill the catalog does not have, 400 without a name', async () => {
    expect((await bySkill('no-such')).status).toBe(404);
    expect((await t.api.send(skillRoute, 'GET', '/api/v1/agents/allowlists/skill')).status).toBe(400);
  });
});

describe('budget planner', () => {
  it("adds each skill's cost up to the rendered catalog, in both forms", async () => {
    const r = await budget('inherits');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ trying: false, candidates: 2, ownBudget: null });
    const gw = await t.api.skills('inherits');
    expect(r.body.prompt.text).toBe(gw.body.prompt.text);
    expect(r.body.prompt.chars).toBe(r.body.prompt.text.length);
    expect(r.body.fullChars).toBe(r.body.prompt.chars);
    expect(r.body.skills.map((s: { name: string; state: string }) => [s.name, s.state])).toEqual([
      ['alpha', 'full'],
      ['bravo', 'full'],
    ]);
    expect(r.body.compactChars).toBeLessThan(r.body.fullChars);
    expect(r.body.prompt.text).toContain('&lt;with &amp; escapes&gt;');
  });

  it('a budget to try compacts, then cuts by count and by characters, without saving anything', async () => {
    const base = (await budget('inherits')).body;
    const compact = (await budget('inherits', `?maxChars=${base.compactChars}`)).body;
    expect(compact).toMatchObject({ trying: true, budget: { maxChars: base.compactChars } });
    expect(compact.prompt).toMatchObject({ form: 'compact', truncated: false, chars: base.compactChars });
    expect(compact.skills.map((s: { state: string }) => s.state)).toEqual(['compact', 'compact']);
    const count = (await budget('inherits', '?maxSkills=1')).body;
    expect(count.prompt).toMatchObject({ truncated: true, included: ['alpha'], cut: ['bravo'] });
    expect(count.skills.map((s: { state: string }) => s.state)).toEqual(['full', 'cut-count']);
    const chars = (await budget('inherits', `?maxChars=${base.compactChars - 1}`)).body;
    expect(chars.prompt.truncated).toBe(true);
    expect(chars.prompt.chars).toBeLessThanOrEqual(base.compactChars - 1);
    expect(chars.skills.at(-1).state).toBe('cut-chars');
    expect((await t.api.get('inherits')).body.budget).toBeNull();
  });

  it('refuses a budget of 0, and an unknown agent', async () => {
    expect((await budget('inherits', '?maxChars=0')).status).toBe(400);
    expect((await budget('inherits', '?maxSkills=-1')).status).toBe(400);
    expect((await budget('ghost')).status).toBe(404);
  });
});

describe('permissions', () => {
  it('a token without agents.read is refused on every view', async () => {
    const { token } = await apiUser(t.ts.services, {
      email: 'views-skills@example.com',
      role: 'viewer',
      tokenName: 'skills-only',
      permissions: ['skills.read'],
    });
    const c = agentsClient(token);
    for (const [h, url, params] of [
      [summaryRoute, '/api/v1/agents/allowlists/summary', undefined],
      [matrixRoute, '/api/v1/agents/allowlists/matrix', undefined],
      [skillRoute, '/api/v1/agents/allowlists/skill?name=alpha', undefined],
      [budgetRoute, '/api/v1/agents/inherits/budget', { id: 'inherits' }],
    ] as const)
      expect((await c.send(h, 'GET', url, params ? { params } : {})).status, url).toBe(403);
  });
});
