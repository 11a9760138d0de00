// The exec-policy step of the explain trace through the real agents API: an agent whose profile
// refuses curl is warned about a curl-based skill (its documented commands and its required
// binary), an agent on balanced is not; the check is kept per skill content and profile rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';
import { skillMd } from '@/test/helpers/skills-api';

let t: AgentsSetup;

const WEATHER = [
  '# Weather',
  '',
  '```bash',
  'curl --fail --silent "https://wttr.in/London?format=3"',
  'curl -s "https://wttr.in/Paris?format=j1" | jq .current_condition',
  '```',
  '',
  '```bash',
  'python3 {baseDir}/scripts/forecast.py --city London',
  '```',
].join('\n');

interface Step {
  step: string;
  pass: boolean;
  warning?: boolean;
  detail: string;
}
const policyOf = async (agent: string, skill: string): Promise<Step | undefined> => {
  const r = await t.api.explain(agent, skill);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.traces[0].steps as Step[]).find((s) => s.step === 'policy');
};

beforeAll(async () => {
  t = await startAgentsSetup('skill-policy');
  t.write('weather', 'Weather by curl.', {
    files: { 'SKILL.md': skillMd('weather', 'Weather by curl.', { metadata: { openclaw: { requires: { bins: ['curl'] } } }, body: WEATHER }) },
  });
  t.write('notes', 'Plain notes.', { files: { 'SKILL.md': skillMd('notes', 'Plain notes.', { body: '# Notes\n\n```bash\nls -la\ncat notes.md\n```\n' }) } });
  await t.refresh();
  expect((await t.api.create({ id: 'strict', name: 'Strict', riskProfile: 'locked_down' })).status).toBe(201);
  expect((await t.api.create({ id: 'default', name: 'Default' })).status).toBe(201);
  expect((await t.api.create({ id: 'picky', name: 'Picky', riskProfile: 'locked_down', denySkills: ['weather'] })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('the exec-policy step of the explain trace', () => {
  it('warns an agent whose profile denies curl about a curl-based skill, naming commands, binary and rule', async () => {
    const s = await policyOf('strict', 'weather');
    expect(s).toMatchObject({ pass: true, warning: true });
    expect(s?.detail).toContain('1 of its required binaries would not run under profile locked_down: curl (denied: allowlist)');
    expect(s?.detail).toContain('3 of the 3 commands its SKILL.md documents would not run under profile locked_down');
    expect(s?.detail).toContain('curl --fail --silent');
    // The skill stays effective: a warning, not a failed step.
    const r = await t.api.explain('strict', 'weather');
    expect(r.body.traces[0]).toMatchObject({ effective: true, failedAt: null });
  });

  it('does not warn an agent on balanced, and says what it checked', async () => {
    const s = await policyOf('default', 'weather');
    expect(s).toMatchObject({ pass: true });
    expect(s?.warning).toBeUndefined();
    expect(s?.detail).toBe('the 3 commands its SKILL.md documents run under profile balanced');
  });

  it('leaves a skill the profile runs without a warning, and a skill the list excludes without the step', async () => {
    const notes = await policyOf('strict', 'notes');
    expect(notes?.warning).toBeUndefined();
    expect(notes?.detail).toContain('the 2 commands');
    const r = await t.api.explain('picky', 'weather');
    expect(r.body.traces[0]).toMatchObject({ excluded: true });
    expect(r.body.traces[0].steps.map((x: Step) => x.step)).toEqual(['allowed']);
  });

  it('keeps each check by skill content and profile: a second explain judges nothing again, an edited skill is judged anew', async () => {
    await t.api.explain('strict');
    await t.api.explain('default');
    const before = t.ts.services.agents.skillPolicy.evaluated;
    await t.api.explain('strict');
    await t.api.explain('default');
    expect(t.ts.services.agents.skillPolicy.evaluated).toBe(before);
    t.write('weather', 'Weather by curl.', {
      files: { 'SKILL.md': skillMd('weather', 'Weather by curl.', { body: '# Weather\n\n```bash\necho no curl now\n```\n' }) },
    });
    await t.refresh();
    const s = await policyOf('strict', 'weather');
    expect(t.ts.services.agents.skillPolicy.evaluated).toBe(before + 1);
    expect(s?.warning).toBeUndefined();
  });
});
