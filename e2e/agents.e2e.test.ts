// The agents console in Chromium. As the admin: three agents are created from the new-agent dialog
// (two inherit the unrestricted defaults, one starts with no skills); in the matrix the two get their
// own lists, boxes are unticked by row and by cell and ticked with the keyboard (arrow + space) for
// the third; the what-if shows per agent the skills gained and lost and the prompt cost before and
// after; one save applies all three. Each agent's page then shows its new effective skills and the
// prompt cost the gateway API reports, the list shows each agent's scope, a skill's page which agents
// can use it, and an edit from a stale revision is refused as a conflict. A viewer sees the same
// pages with every write control disabled. On an agent's Exec policy tab a custom profile is picked
// and one deny group and high-risk blocking are turned off for the agent alone; the effective rules
// (from the API and on the page) follow, its recent execs are listed, and a viewer cannot write.
// A user-only skill (disable-model-invocation) shows as a command, not in the prompt; the Nodmix preset
// of the metadata blocks is saved from Settings → Skills.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer, tempDir } from './helpers/server';
import { Client, PASSWORD, seedUsers } from './helpers/session';

const SKILLS = ['alpha', 'bravo', 'charlie', 'delta'];
const AGENTS = [
  { id: 'e2e-one', name: 'Agent One', scope: 'inherit' },
  { id: 'e2e-two', name: 'Agent Two', scope: 'inherit' },
  { id: 'e2e-three', name: 'Agent Three', scope: 'none' },
] as const;

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let admin: Client;
let tmp = '';

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
  ({ admin } = await seedUsers(server));
  tmp = tempDir('skilldock-e2e-agents-');
  const root = path.join(tmp, 'ws', 'skills');
  for (const n of SKILLS) {
    fs.mkdirSync(path.join(root, n), { recursive: true });
    fs.writeFileSync(path.join(root, n, 'SKILL.md'), `---\nname: ${n}\ndescription: "The ${n} skill (agents end-to-end test)."\n---\n\n# ${n}\n`);
  }
  const set = await admin.req('PUT', '/api/v1/settings/skills', { workspaceDir: path.join(tmp, 'ws'), personalDir: path.join(tmp, 'personal') });
  expect(set.status, JSON.stringify(set.json)).toBe(200);
  expect((await admin.req('POST', '/api/v1/skills/refresh')).status).toBe(200);
  const list = await admin.req('GET', '/api/v1/skills');
  expect(list.json.skills.filter((s: { status: string }) => s.status === 'ready').map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(SKILLS));
  browser = await openBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const gateway = async (id: string) => {
  const r = await admin.req('GET', `/api/v1/agents/${id}/skills`);
  expect(r.status).toBe(200);
  return r.json as { skills: { name: string }[]; prompt: { chars: number; tokens: number } };
};

async function createAgent(page: Page, a: (typeof AGENTS)[number]) {
  await page.goto(`${server.base}/agents`);
  await page.getByTestId('new-agent').click();
  const dialog = page.getByRole('dialog', { name: 'New agent' });
  await dialog.getByLabel('Id').fill('Bad/Id');
  await dialog.getByText('An agent id is 1–64 lower-case letters', { exact: false }).waitFor();
  await dialog.getByLabel('Id').fill(a.id);
  await dialog.getByLabel('Name').fill(a.name);
  if (a.scope === 'none') await dialog.getByLabel('Skills').selectOption('none');
  await dialog.getByRole('button', { name: 'Create agent' }).click();
  await page.waitForURL(`**/agents/${a.id}`);
  await page.getByTestId('detail-scope').waitFor();
}

const cell = (page: Page, agent: string, skill: string) => page.getByRole('checkbox', { name: `${agent} may use ${skill}`, exact: true });

it('edits three agents in the matrix through the what-if, then shows their new effective skills and cost; a viewer cannot write', async () => {
  const { page, context } = browser;
  await signIn(page, server.base, 'admin@example.com', PASSWORD);
  for (const a of AGENTS) await createAgent(page, a);
  const before = { one: await gateway('e2e-one'), three: await gateway('e2e-three') };
  expect(before.one.skills.map((s) => s.name)).toEqual(SKILLS);
  expect(before.three.skills).toEqual([]);

  // The list: each agent's scope and effective count.
  await page.goto(`${server.base}/agents`);
  const one = page.getByTestId('agent-row-e2e-one');
  expect(await one.getByTestId('agent-scope').textContent()).toBe('inherits defaults (unrestricted)');
  expect(await one.getByTestId('agent-effective-count').textContent()).toBe('4');
  expect(await page.getByTestId('agent-row-e2e-three').getByTestId('agent-scope').textContent()).toBe('no skills');

  // The matrix: inheriting rows are marked and read-only until they get their own list.
  await page.goto(`${server.base}/agents/matrix`);
  const rowOne = page.getByTestId('matrix-row-e2e-one');
  await rowOne.getByTestId('inherits-marker').waitFor();
  expect(await cell(page, 'e2e-one', 'charlie').isChecked()).toBe(true);
  expect(await cell(page, 'e2e-one', 'charlie').getAttribute('aria-disabled')).toBe('true');
  await page.getByRole('switch', { name: 'Own list for e2e-one' }).click();
  expect(await rowOne.getAttribute('data-own')).toBe('true');
  expect(await rowOne.getByTestId('inherits-marker').count()).toBe(0);
  await cell(page, 'e2e-one', 'charlie').click();
  await cell(page, 'e2e-one', 'delta').click();
  expect(await cell(page, 'e2e-one', 'delta').isChecked()).toBe(false);

  // Agent two: its own list, every box unticked by the row button, then alpha ticked.
  await page.getByRole('switch', { name: 'Own list for e2e-two' }).click();
  await page.getByRole('button', { name: 'Untick every shown skill for e2e-two' }).click();
  for (const n of SKILLS) expect(await cell(page, 'e2e-two', n).isChecked()).toBe(false);
  await cell(page, 'e2e-two', 'alpha').click();

  // Agent three (own empty list): bravo by click, charlie with the keyboard.
  await cell(page, 'e2e-three', 'bravo').click();
  await page.keyboard.press('ArrowRight');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('e2e-three may use charlie');
  await page.keyboard.press('Space');
  expect(await cell(page, 'e2e-three', 'charlie').isChecked()).toBe(true);
  expect(await page.getByTestId('matrix-changes').textContent()).toBe('3 agents changed');

  // The what-if: gains, losses and the cost change per agent, before anything is saved.
  await page.getByTestId('matrix-review').click();
  const whatIf = page.getByTestId('what-if');
  await whatIf.getByTestId('whatif-row-e2e-three').waitFor();
  const rowText = async (id: string) => (await whatIf.getByTestId(`whatif-row-${id}`).textContent()) ?? '';
  expect(await whatIf.getByTestId('whatif-row-e2e-one').getByTestId('whatif-lost').textContent()).toBe('− charlie, delta');
  expect(await whatIf.getByTestId('whatif-row-e2e-two').getByTestId('whatif-lost').textContent()).toBe('− bravo, charlie, delta');
  expect(await whatIf.getByTestId('whatif-row-e2e-three').getByTestId('whatif-gained').textContent()).toBe('+ bravo, charlie');
  expect(await rowText('e2e-one')).toContain('4 → 2 skills');
  expect(await rowText('e2e-two')).toContain('4 → 1 skills');
  expect(await rowText('e2e-three')).toContain(`0 → 2 skills`);
  expect(await rowText('e2e-one')).toContain(`${before.one.prompt.chars.toLocaleString('en-US')} → `);
  expect((await gateway('e2e-one')).skills.map((s) => s.name)).toEqual(SKILLS);
  await page.getByTestId('whatif-save').click();
  await whatIf.waitFor({ state: 'detached' });
  await page.getByText('No unsaved changes').waitFor();

  // Each agent's page: the new effective skills and the prompt cost the gateway reports.
  const expected = { 'e2e-one': ['alpha', 'bravo'], 'e2e-two': ['alpha'], 'e2e-three': ['bravo', 'charlie'] };
  for (const [id, names] of Object.entries(expected)) {
    const g = await gateway(id);
    expect(g.skills.map((s) => s.name)).toEqual(names);
    await page.goto(`${server.base}/agents/${id}?tab=effective`);
    const summary = page.getByTestId('effective-summary');
    await summary.waitFor();
    expect(await summary.textContent()).toContain(`${names.length} skill${names.length === 1 ? '' : 's'} on the host`);
    expect(await summary.textContent()).toContain(`${g.prompt.chars.toLocaleString('en-US')} chars · ~${g.prompt.tokens.toLocaleString('en-US')} tokens`);
    const visible = page.getByTestId('traces-visible').locator('[data-effective="true"]');
    expect((await visible.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')))).sort()).toEqual(names.map((n) => `trace-${n}`));
    await page.getByTestId('agent-tab-prompt').click();
    await page
      .getByTestId('budget-prompt-cost')
      .getByText(`${g.prompt.chars.toLocaleString('en-US')} chars`, { exact: false })
      .waitFor();
    expect(await page.getByTestId('prompt-text').textContent()).toContain(`<name>${names[0]}</name>`);
  }
  // The trace says why a skill the list leaves out is not visible.
  await page.goto(`${server.base}/agents/e2e-two?tab=effective`);
  await page.getByLabel('Skill name to explain').fill('delta');
  await page.getByTestId('explain-submit').click();
  expect(await page.getByTestId('explain-answer').textContent()).toContain(`"delta" is not on the agent's own list`);
  await page.goto(`${server.base}/agents`);
  expect(await page.getByTestId('agent-row-e2e-one').getByTestId('agent-scope').textContent()).toBe('own list · 2');
  expect(await page.getByTestId('agent-row-e2e-three').getByTestId('agent-effective-count').textContent()).toBe('2');

  // From a skill's page: which agents can use it, and the rule that blocks it for the others.
  const alpha = (await admin.req('GET', '/api/v1/skills')).json.skills.find((s: { name: string }) => s.name === 'alpha');
  await page.goto(`${server.base}/skills/${encodeURIComponent(alpha.id)}`);
  const card = page.getByTestId('skill-agents');
  await card.locator('[data-testid="skill-agent-e2e-two"][data-effective="true"]').waitFor();
  expect(await card.getByTestId('skill-agent-e2e-one').getAttribute('data-effective')).toBe('true');
  expect(await card.getByTestId('skill-agent-e2e-three').textContent()).toContain(`"alpha" is not on the agent's own list`);

  // A concurrent edit: the editor's save from a stale revision is refused, saying so, and changes nothing.
  await page.goto(`${server.base}/agents/e2e-one`);
  await page.getByTestId('agent-editor').waitFor();
  const current = await admin.req('GET', '/api/v1/agents/e2e-one');
  expect((await admin.req('PATCH', '/api/v1/agents/e2e-one', { revision: current.json.revision, description: 'Changed elsewhere' })).status).toBe(200);
  await page.getByTestId('agent-editor').getByLabel('Name').fill('Agent One renamed');
  await page.getByTestId('save-agent').click();
  const conflict = page.getByTestId('agent-conflict');
  await conflict.waitFor();
  expect(await conflict.textContent()).toContain('changed by someone else');
  expect((await admin.req('GET', '/api/v1/agents/e2e-one')).json.name).toBe('Agent One');
  await conflict.getByRole('button', { name: 'Reload' }).click();
  await conflict.waitFor({ state: 'detached' });
  expect(await page.getByTestId('agent-editor').getByLabel('Description').inputValue()).toBe('Changed elsewhere');
  expect(await page.getByTestId('agent-editor').getByLabel('Name').inputValue()).toBe('Agent One');

  // A viewer: the same pages, every write control disabled.
  await context.clearCookies();
  await signIn(page, server.base, 'viewer@example.com', PASSWORD);
  await page.goto(`${server.base}/agents`);
  await page.getByTestId('agent-row-e2e-one').waitFor();
  expect(await page.getByTestId('new-agent').isDisabled()).toBe(true);
  expect(await page.getByRole('button', { name: 'Delete e2e-one' }).isDisabled()).toBe(true);
  expect(await page.getByTestId('save-defaults').isDisabled()).toBe(true);
  await page.goto(`${server.base}/agents/matrix`);
  await page.getByTestId('matrix-row-e2e-one').waitFor();
  expect(await page.getByRole('switch', { name: 'Own list for e2e-two' }).isDisabled()).toBe(true);
  expect(await cell(page, 'e2e-one', 'alpha').getAttribute('aria-disabled')).toBe('true');
  await cell(page, 'e2e-one', 'alpha').click({ force: true });
  expect(await cell(page, 'e2e-one', 'alpha').isChecked()).toBe(true);
  expect(await page.getByTestId('matrix-review').isDisabled()).toBe(true);
  await page.goto(`${server.base}/agents/e2e-one`);
  await page.getByTestId('agent-editor').waitFor();
  expect(await page.getByTestId('agent-editor').getByLabel('Name').isDisabled()).toBe(true);
  expect(await page.getByTestId('save-agent').isDisabled()).toBe(true);
}, 300_000);

it("sets an agent's risk profile and overrides on its Exec policy tab; the effective rules and its recent execs show; a viewer cannot write", async () => {
  const { page, context } = browser;
  const id = 'e2e-policy';
  const profile = `e2e-agent-${Date.now().toString(36)}`;
  const made = await admin.req('POST', '/api/v1/exec-policy/profiles', {
    name: profile,
    description: 'Asks before network recon; paths stay in the workspace.',
    rules: { denyGroups: { network_recon: 'approval' }, workspaceOnly: true },
  });
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  const cfg = await admin.req('POST', '/api/v1/sandbox-configs', {
    name: `e2e-agents-${Date.now().toString(36)}`,
    backend: 'docker',
    config: { image: 'busybox:latest' },
  });
  expect(cfg.status, JSON.stringify(cfg.json)).toBe(201);
  expect((await admin.req('POST', '/api/v1/agents', { id, name: 'Policy Agent', sandboxConfigId: cfg.json.id })).status).toBe(201);
  // A denied exec (nothing runs): it is logged, so the tab lists it.
  // The gateway execs with the agent's own token (a person's session does not exec as an agent).
  const minted = await admin.req('POST', '/api/v1/tokens', { name: 'gw', permissions: ['agents.read', 'agents.exec'], agentIds: [id] });
  expect(minted.status, JSON.stringify(minted.json)).toBe(201);
  const gateway = new Client(server.base, { token: minted.json.token });
  const denied = await gateway.req('POST', `/api/v1/agents/${id}/exec`, { command: 'sudo ls' });
  expect(denied.json).toMatchObject({ decision: 'deny', rule: 'deny_group:privilege_escalation', outcome: 'denied' });

  await context.clearCookies();
  await signIn(page, server.base, 'admin@example.com', PASSWORD);
  await page.goto(`${server.base}/agents/${id}?tab=policy`);
  const effective = page.getByTestId('agent-policy-effective');
  await effective.locator('[data-testid="effective-profile"][data-profile="balanced"]').waitFor();
  const execs = page.getByTestId('agent-policy-execs');
  const row = execs.locator('tr[data-decision="deny"]');
  await row.waitFor();
  expect(await row.textContent()).toContain('sudo ls');
  expect(await row.textContent()).toContain('deny_group:privilege_escalation');
  expect(await execs.getByTestId('agent-policy-exec-log-link').getAttribute('href')).toBe(`/policy/exec-log?agent=${id}`);

  // The custom profile: its groups are inherited; one group off and high-risk blocking off for this agent alone.
  const editor = page.getByTestId('agent-policy');
  await editor.getByLabel('Risk profile').selectOption(profile);
  const recon = editor.locator('li[data-group="network_recon"]');
  await expect.poll(() => recon.getAttribute('data-mode')).toBe('approval');
  expect(await recon.getAttribute('data-inherits')).toBe('true');
  await editor.getByLabel('privilege_escalation', { exact: true }).selectOption('off');
  await editor.getByLabel('Block high-risk commands').selectOption('off');
  await expect.poll(() => editor.locator('li[data-group="privilege_escalation"]').getAttribute('data-inherits')).toBe('false');
  await expect.poll(() => effective.textContent()).toContain('save to apply your edits');
  expect((await admin.req('GET', `/api/v1/agents/${id}/exec-policy`)).json.profile).toBe('balanced');
  await page.getByTestId('save-agent-policy').click();
  const group = (g: string) => effective.locator(`[data-effective-group="${g}"]`);
  await expect.poll(() => group('privilege_escalation').getAttribute('data-mode')).toBe('off');

  const api = (await admin.req('GET', `/api/v1/agents/${id}/exec-policy`)).json;
  expect(api.profile).toBe(profile);
  expect(api.overrides).toEqual({ denyGroups: { privilege_escalation: 'off' }, blockHighRisk: false });
  expect(api.rules).toMatchObject({ blockHighRisk: false, workspaceOnly: true });
  expect(api.rules.denyGroups).toMatchObject({ privilege_escalation: 'off', network_recon: 'approval' });
  // The page shows the same effective state: which setting is the agent's own, which the profile's.
  expect(await effective.getByTestId('effective-profile').getAttribute('data-profile')).toBe(profile);
  expect(await effective.getByTestId('effective-profile').textContent()).toContain('with 2 settings overridden for this agent');
  expect(await group('privilege_escalation').getAttribute('data-override')).toBe('true');
  expect(await group('network_recon').getAttribute('data-mode')).toBe('approval');
  expect(await group('network_recon').getAttribute('data-override')).toBe('false');
  expect(await effective.locator('[data-rule-field="blockHighRisk"] dd').getAttribute('data-value')).toBe('off');
  expect(await effective.locator('[data-rule-field="workspaceOnly"] dd').getAttribute('data-value')).toBe('on (/workspace)');
  expect(await effective.textContent()).not.toContain('save to apply');

  // After a reload the saved choices come back; the tester link decides as this agent.
  await page.reload();
  await editor.locator('li[data-group="privilege_escalation"][data-inherits="false"][data-mode="off"]').waitFor();
  expect(await editor.getByLabel('Risk profile').inputValue()).toBe(profile);
  expect(await editor.getByLabel('Block high-risk commands').inputValue()).toBe('off');
  await page.getByTestId('agent-policy-tester-link').click();
  await page.waitForURL(/\/policy\/tester/);
  await expect.poll(() => page.getByLabel('Profile', { exact: true }).inputValue()).toBe(`agent:${id}`);

  // Inheriting everything again stores no overrides at all; the balanced preset stores no profile.
  await page.goto(`${server.base}/agents/${id}?tab=policy`);
  await page.getByTestId('policy-clear-overrides').click();
  await editor.getByLabel('Risk profile').selectOption('balanced');
  await page.getByTestId('save-agent-policy').click();
  await expect.poll(async () => (await admin.req('GET', `/api/v1/agents/${id}`)).json.policyOverrides).toBeNull();
  expect((await admin.req('GET', `/api/v1/agents/${id}`)).json.riskProfile).toBeNull();
  await expect.poll(() => group('privilege_escalation').getAttribute('data-mode')).toBe('deny');
  expect(await effective.getByTestId('effective-profile').textContent()).toContain('balanced, no overrides');

  // A viewer: the same tab, its controls disabled.
  await context.clearCookies();
  await signIn(page, server.base, 'viewer@example.com', PASSWORD);
  await page.goto(`${server.base}/agents/${id}?tab=policy`);
  await editor.locator('li[data-group="privilege_escalation"]').waitFor();
  expect(await editor.getByLabel('Risk profile').isDisabled()).toBe(true);
  expect(await editor.getByLabel('privilege_escalation', { exact: true }).isDisabled()).toBe(true);
  expect(await editor.getByLabel('Block high-risk commands').isDisabled()).toBe(true);
  expect(await page.getByTestId('save-agent-policy').isDisabled()).toBe(true);
  await execs.locator('tr[data-decision="deny"]').waitFor();
}, 300_000);

it('shows user-invocable skills as commands on the agent page; Settings → Skills sets the metadata blocks a gateway flavour reads', async () => {
  const { page, context } = browser;
  await context.clearCookies();
  await signIn(page, server.base, 'admin@example.com', PASSWORD);
  const root = path.join(tmp, 'ws', 'skills');
  const write = (n: string, extra: string) => {
    fs.mkdirSync(path.join(root, n), { recursive: true });
    fs.writeFileSync(path.join(root, n, 'SKILL.md'), `---\nname: ${n}\ndescription: "The ${n} skill."\n${extra}\n---\n\n# ${n}\n`);
  };
  write('e2e-deploy', 'disable-model-invocation: true\ncommand-dispatch: tool\ncommand-tool: deploy_tool');
  write('e2e-quiet', 'user-invocable: false');
  expect((await admin.req('POST', '/api/v1/skills/refresh')).status).toBe(200);
  expect((await admin.req('POST', '/api/v1/agents', { id: 'e2e-cmd', name: 'Commands', skills: ['alpha', 'e2e-deploy', 'e2e-quiet'] })).status).toBe(201);
  const g = (await admin.req('GET', '/api/v1/agents/e2e-cmd/skills')).json as { skills: { name: string }[]; commands: { name: string }[] };
  expect(g.skills.map((s) => s.name)).toEqual(['alpha', 'e2e-quiet']);
  expect(g.commands.map((c) => c.name)).toEqual(['alpha', 'e2e-deploy']);

  await page.goto(`${server.base}/agents/e2e-cmd?tab=effective`);
  const commands = page.getByTestId('commands-table');
  await commands.getByTestId('command-e2e-deploy').waitFor();
  expect(await commands.getByTestId('command-e2e-deploy').textContent()).toContain('user only');
  expect(await commands.getByTestId('command-e2e-deploy').textContent()).toContain('tool deploy_tool');
  expect(await commands.getByTestId('command-alpha').textContent()).toContain('in the prompt too');
  expect(await commands.getByTestId('command-e2e-quiet').count()).toBe(0);
  await page.getByRole('tab', { name: /Not visible/ }).click();
  await page.getByTestId('command-badge-e2e-deploy').waitFor();

  await page.goto(`${server.base}/settings#skills`);
  const form = page.getByTestId('skills-settings-form');
  const keys = form.getByLabel('Metadata blocks read');
  await keys.fill('openclaw, openclaw');
  await form.getByText('name each metadata block once').waitFor();
  expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
  await form.getByTestId('sk-metadata-flavour-nodmix').click();
  expect(await keys.inputValue()).toBe('nodmix, clawdbot');
  await form.getByText('Unsaved: metadata blocks').waitFor();
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Skills settings saved').waitFor();
  expect((await admin.req('GET', '/api/v1/settings/skills')).json.metadataKeys).toEqual(['nodmix', 'clawdbot']);
  expect((await admin.req('PUT', '/api/v1/settings/skills', { metadataKeys: ['openclaw', 'nodmix', 'clawdbot', 'clawdis', 'moltbot'] })).status).toBe(200);
}, 300_000);

it("sets and removes an agent's own variable on its page; the value is never shown", async () => {
  const { page, context } = browser;
  await context.clearCookies();
  await signIn(page, server.base, 'admin@example.com', PASSWORD);
  await page.goto(`${server.base}/agents/e2e-cmd`);
  const card = page.getByTestId('agent-env-card');
  await card.getByText('No variables of its own').waitFor();
  await card.getByLabel('For').selectOption('personal_skill');
  await card.getByLabel('Skill key').fill('alpha');
  await card.getByLabel('Name').fill('ALPHA_API_KEY');
  await card.getByLabel('Value').fill('agent-secret-value');
  await card.getByRole('button', { name: 'Set' }).click();
  const list = card.getByTestId('agent-env-list');
  await list.getByText('ALPHA_API_KEY').waitFor();
  await list.getByText('skill alpha').waitFor();
  expect(await page.content()).not.toContain('agent-secret-value');
  const stored = (await admin.req('GET', '/api/v1/agents/e2e-cmd/env')).json.items;
  expect(stored.map((v: { level: string; skillKey: string; name: string }) => [v.level, v.skillKey, v.name])).toEqual([
    ['personal_skill', 'alpha', 'ALPHA_API_KEY'],
  ]);
  await card.getByRole('button', { name: 'Remove ALPHA_API_KEY' }).click();
  await page.getByRole('alertdialog', { name: 'Remove ALPHA_API_KEY?' }).getByRole('button', { name: 'Remove' }).click();
  await card.getByText('No variables of its own').waitFor();
  expect((await admin.req('GET', '/api/v1/agents/e2e-cmd/env')).json.items).toEqual([]);
}, 120_000);
