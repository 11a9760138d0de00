// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { explainOut, gatewaySkillsOut } from '@/lib/api/agent-schemas';
import { renderComponent } from '@/test/helpers/render-component';
import { EffectiveTab } from './effective-tab';

const target = { kind: 'host' as const, configId: null, label: 'this host' };
const ok = (step: string, detail: string) => ({ step, pass: true, detail });
const copy = (name: string) => [{ source: 'workspace', root: '/srv/skills', dir: `/srv/skills/${name}`, won: true }];
const visible = (name: string) => ({
  name,
  excluded: false,
  effective: true,
  failedAt: null,
  copies: copy(name),
  steps: [ok('found', 'found in 1 root(s): workspace (/srv/skills)'), ok('usable', 'valid; scanner verdict clean'), ok('prompt', 'in the prompt (full form)')],
});
// A skill that fails three steps: every one of them is evaluated and reported.
const broken = {
  name: 'github-deploy',
  excluded: false,
  effective: false,
  failedAt: 'eligible',
  copies: copy('github-deploy'),
  steps: [
    ok('found', 'found in 1 root(s): workspace (/srv/skills)'),
    ok('usable', 'valid; scanner verdict clean'),
    { step: 'eligible', pass: false, detail: 'not eligible on this host: bins: missing gh' },
    { step: 'installed', pass: true, skipped: true, detail: 'runs on the host: nothing to install' },
    ok('allowed', '"github-deploy" is on the defaults'),
    { step: 'enabled', pass: false, detail: 'disabled in config (skills.entries.github-deploy.enabled = false)' },
    {
      step: 'model-invocable',
      pass: false,
      detail: 'disable-model-invocation is true and user-invocable is false: neither the model nor a user can invoke it',
    },
    { step: 'prompt', pass: false, skipped: true, detail: 'not reached: it fails eligible, enabled, model-invocable' },
  ],
};
const excluded = (name: string) => ({
  name,
  excluded: true,
  effective: false,
  failedAt: 'allowed',
  copies: [],
  steps: [{ step: 'allowed', pass: false, detail: `"${name}" is not on the agent's own list` }],
});

function renderTab() {
  const explain = explainOut.parse({
    agentId: 'writer',
    version: 'v1',
    target,
    budget: { maxSkills: 150, maxChars: 30000 },
    effective: ['git-status', 'weather'],
    prompt: { chars: 420, tokens: 105, form: 'full', truncated: false, included: ['git-status', 'weather'], cut: [] },
    traces: [visible('git-status'), visible('weather'), broken, excluded('gitlab-sync'), excluded('slack')],
  });
  const skills = gatewaySkillsOut.parse({
    agentId: 'writer',
    version: 'v1',
    target,
    skills: [],
    commands: [],
    prompt: { text: '<available_skills></available_skills>', chars: 37, tokens: 9, form: 'full', truncated: false, included: [], cut: [] },
  });
  return renderComponent(<EffectiveTab agentId="writer" />, {
    role: 'viewer',
    queries: [
      [['agents', 'explain', 'writer', ''], explain],
      [['agents', 'skills', 'writer'], skills],
    ],
  });
}

const tabCounts = () =>
  Object.fromEntries(screen.getAllByRole('tab').map((t) => [t.textContent?.replace(/[\d–]+$/, '').trim(), t.querySelector('span')?.textContent]));

describe('the effective skills tab', () => {
  it('counts in each tab what the search matches', () => {
    renderTab();
    expect(tabCounts()).toEqual({ Visible: '2', 'Not visible': '1', 'Not on the list': '2' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter skills by name' }), { target: { value: 'git' } });
    expect(tabCounts()).toEqual({ Visible: '1', 'Not visible': '1', 'Not on the list': '1' });
    expect(
      within(screen.getByTestId('traces-visible'))
        .getAllByRole('listitem')
        .map((li) => li.dataset.testid),
    ).toEqual(['trace-git-status']);
  });

  it('names every step a skill fails, and marks each step of its trace passed or failed', () => {
    renderTab();
    fireEvent.mouseDown(screen.getByRole('tab', { name: /Not visible/ }), { button: 0 });
    const row = screen.getByTestId('trace-github-deploy');
    expect(within(row).getByText('not eligible, not enabled, not model-invocable')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button'));
    const steps = within(row).getAllByRole('listitem');
    expect(steps.map((li) => [li.dataset.step, li.querySelector('.sr-only')?.textContent])).toEqual([
      ['found', 'passes: '],
      ['usable', 'passes: '],
      ['eligible', 'fails: '],
      ['installed', 'skipped: '],
      ['allowed', 'passes: '],
      ['enabled', 'fails: '],
      ['model-invocable', 'fails: '],
      ['prompt', 'skipped: '],
    ]);
  });
});
