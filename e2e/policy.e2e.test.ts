// The exec policy console in Chromium as the owner: the tester decides commands live (a denied
// `sudo ls` with its rule, an allowed `ls -la`); a custom profile is created from a preset with a
// strict allowlist and a deny group changed; an edit is replayed against a pasted list (one command
// newly passing, one newly failing) and saved; a stale save shows the conflict; a profile in use is
// refused deletion naming its agent; a pending approval created through the gateway's exec is
// approved from the approvals page; the agent's exec log lists its execs; a viewer sees the
// controls disabled.

import Docker from 'dockerode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { seriousViolations } from './helpers/axe';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { Client, login, PASSWORD } from './helpers/session';

const PROFILE = `e2e-strict-${Date.now().toString(36)}`;

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let image = '';

beforeAll(async () => {
  await ensureBuilt();
  image = await ensureBusyboxImage(new Docker());
  server = await startServer({
    env: { SKILLDOCK_ADMIN_EMAIL: 'owner@example.com', SKILLDOCK_ADMIN_PASSWORD: PASSWORD, DOCKER_HOST: process.env.DOCKER_HOST ?? '' },
  });
  browser = await openBrowser();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const call = (page: Page, url: string, method = 'GET', body?: unknown) =>
  page.evaluate(
    async ([u, m, b]) => {
      const r = await fetch(u as string, {
        method: m as string,
        headers: b ? { 'content-type': 'application/json' } : {},
        body: b ? JSON.stringify(b) : undefined,
      });
      return { status: r.status, json: await r.json().catch(() => null) };
    },
    [url, method, body] as const,
  );

/** Types a command into the tester and waits until the banner shows the decision for it. */
async function decide(page: Page, command: string) {
  const box = page.getByLabel('Command', { exact: true });
  // Filled at once, even before React hydrated a freshly loaded page: the tester takes what the box
  // holds when it mounts, and mirrors its state into the URL.
  await box.fill(command);
  await expect.poll(() => new URL(page.url()).searchParams.get('command')).toBe(command);
  await box.press('Enter');
  const banner = page.getByRole('region', { name: 'Decision' });
  // The segments table shows the command's own segments once the answer for it arrived.
  await page
    .locator(`tr[data-segment="${command.replace(/"/g, '\\"')}"]`)
    .first()
    .waitFor();
  await expect.poll(() => banner.evaluate((e) => e.className.includes('opacity-60'))).toBe(false);
  return { decision: await banner.getAttribute('data-decision'), rule: await banner.getAttribute('data-rule'), text: await banner.textContent() };
}

it('tests commands, edits a profile with a replay, approves a pending exec and shows the exec log', async () => {
  const { page } = browser;
  await signIn(page, server.base, 'owner@example.com', PASSWORD);

  // The nav entry leads to the profiles: the three presets, read-only, balanced the default.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Exec policy' }).click();
  await page.waitForURL(/\/policy$/);
  const presets = page.getByRole('table', { name: 'Presets' });
  for (const p of ['locked_down', 'balanced', 'yolo']) await presets.locator(`tr[data-profile="${p}"]`).waitFor();
  await expect.poll(() => presets.locator('tr[data-profile="balanced"]').textContent()).toContain('default');

  // The tester under the default profile: a privilege escalation is denied with its rule, ls -la passes.
  await page.getByRole('navigation', { name: 'Exec policy' }).getByRole('link', { name: 'Tester' }).click();
  await page.waitForURL(/\/policy\/tester/);
  const sudo = await decide(page, 'sudo ls');
  expect(sudo.decision).toBe('deny');
  expect(sudo.rule).toBe('deny_group:privilege_escalation');
  expect(sudo.text).toContain(sudo.rule!);
  const viaApi = await call(page, '/api/v1/exec-policy/evaluate', 'POST', { command: 'sudo ls' });
  expect(viaApi.json).toMatchObject({ decision: 'deny', rule: sudo.rule });
  const ls = await decide(page, 'ls -la');
  expect(ls).toMatchObject({ decision: 'allow', rule: 'allowed' });
  expect(await page.locator('tr[data-segment="ls -la"]').textContent()).toContain('-la');
  // The parse tree folds out of its summary.
  await page.locator('summary', { hasText: 'Parse tree' }).click();
  await page.getByRole('list', { name: 'Parse tree' }).locator('[data-node="command"]').first().waitFor();
  // Live: typing alone (no Enter) decides too, and the URL carries the command to share.
  await page.getByLabel('Command', { exact: true }).fill('echo "sudo is only a word"');
  await page.locator('tr[data-segment=\'echo "sudo is only a word"\']').waitFor();
  expect(await page.getByRole('region', { name: 'Decision' }).getAttribute('data-decision')).toBe('allow');
  expect(new URL(page.url()).searchParams.get('command')).toBe('echo "sudo is only a word"');

  // A new profile from balanced: only ls, git and cat; package installs denied instead of asked.
  await page.goto(`${server.base}/policy/new?from=balanced`);
  await page.getByRole('heading', { name: 'New profile' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill(PROFILE);
  const allowedList = page.getByRole('list', { name: 'Allowed commands' });
  await allowedList.locator('[data-entry="*"]').waitFor();
  await page.getByRole('button', { name: 'Remove *' }).click();
  const entry = page.getByLabel('New entry for allowed commands');
  for (const c of ['ls', 'git', 'cat', 'pip']) {
    await entry.fill(c);
    await entry.press('Enter');
  }
  // An entry with a space is refused by the same schema the server uses.
  await entry.fill('rm -rf');
  await entry.press('Enter');
  await page.getByText('one command name or path, no spaces').waitFor();
  await entry.fill('');
  await page.getByLabel('package_install', { exact: true }).selectOption('deny');
  expect(await page.locator('li[data-group="package_install"]').textContent()).toContain('Changed from the default');
  await page.getByRole('button', { name: 'Create profile' }).click();
  await page.waitForURL(new RegExp(`/policy/profiles/${PROFILE}$`));
  await page.getByRole('heading', { name: `Edit ${PROFILE}` }).waitFor();
  const created = await call(page, `/api/v1/exec-policy/profiles/${PROFILE}`);
  expect(created.status).toBe(200);
  expect(created.json.rules.allowedCommands).toEqual(['ls', 'git', 'cat', 'pip']);
  expect(created.json.rules.denyGroups).toEqual({ package_install: 'deny' });
  expect(created.json.revision).toBeGreaterThanOrEqual(0);

  // An unsaved edit — drop git, add grep — replayed against a pasted list before saving.
  await page.getByRole('button', { name: 'Remove git' }).click();
  await entry.fill('grep');
  await entry.press('Enter');
  // The unsaved edits decide a command at once in the editor's own tester.
  const tryIt = page.getByLabel('Command to try');
  const inline = page.locator('[data-slot="inline-tester"]').getByRole('region', { name: 'Decision' });
  await tryIt.fill('git status');
  await page.locator('[data-slot="inline-tester"] [data-rule="allowlist"][data-decision="deny"]').waitFor();
  await tryIt.fill('grep -rn sudoku .');
  await page.locator('[data-slot="inline-tester"] [data-rule="allowed"][data-decision="allow"]').waitFor();
  expect(await inline.count()).toBe(1);
  await page.getByLabel('Commands, one per line').fill(['ls -la', 'git status', 'grep -rn sudoku .', 'sudo ls', 'ls -la'].join('\n'));
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  const results = page.locator('[data-slot="replay-results"]');
  await results.waitFor();
  expect(await results.locator('[data-stat="Commands"] > div').first().textContent()).toBe('4');
  expect(await results.locator('[data-stat="Newly passing"] > div').first().textContent()).toBe('1');
  expect(await results.locator('[data-stat="Newly failing"] > div').first().textContent()).toBe('1');
  // "Changed only" is the first view when something changed: exactly the two that flip.
  const rows = results.getByRole('table', { name: 'Replay' }).locator('tbody tr');
  expect(
    await rows.evaluateAll((els) => els.map((e) => [e.getAttribute('data-command'), e.getAttribute('data-before'), e.getAttribute('data-after')])),
  ).toEqual([
    ['git status', 'allow', 'deny'],
    ['grep -rn sudoku .', 'deny', 'allow'],
  ]);
  await results.getByLabel('Which commands to show').selectOption('all');
  expect(await rows.count()).toBe(4);
  // Nothing was saved by the replay.
  expect((await call(page, `/api/v1/exec-policy/profiles/${PROFILE}`)).json.rules.allowedCommands).toContain('git');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect.poll(async () => (await call(page, `/api/v1/exec-policy/profiles/${PROFILE}`)).json.rules.allowedCommands).toEqual(['ls', 'cat', 'pip', 'grep']);
  await page.getByText(/Saved · revision/).waitFor();

  // Someone else saves in between: the next save is refused and shown as a conflict.
  const before = (await call(page, `/api/v1/exec-policy/profiles/${PROFILE}`)).json;
  const other = await call(page, `/api/v1/exec-policy/profiles/${PROFILE}`, 'PATCH', { revision: before.revision, description: 'changed elsewhere' });
  expect(other.status).toBe(200);
  await page.getByLabel('Description', { exact: true }).fill('mine');
  await page.getByRole('button', { name: 'Save profile' }).click();
  const conflict = page.locator('[data-slot="conflict"]');
  await conflict.waitFor();
  expect(await conflict.textContent()).toContain(`revision ${other.json.revision}`);
  expect((await call(page, `/api/v1/exec-policy/profiles/${PROFILE}`)).json.description).toBe('changed elsewhere');
  await conflict.getByRole('button', { name: 'Load their version' }).click();
  await expect.poll(() => page.getByLabel('Description', { exact: true }).inputValue()).toBe('changed elsewhere');

  // The tester under the saved profile: grep now passes, git does not.
  await page.goto(`${server.base}/policy/tester?profile=${PROFILE}`);
  expect((await decide(page, 'grep -rn sudoku .')).decision).toBe('allow');
  const git = await decide(page, 'git status');
  expect(git.decision).toBe('deny');
  expect(git.rule).toBe('allowlist');

  // An agent bound to a sandbox config decides with the profile; approvals answer 202 at once.
  const cfg = await call(page, '/api/v1/sandbox-configs', 'POST', {
    name: `e2e-policy-${Date.now().toString(36)}`,
    backend: 'docker',
    config: { image, host: process.env.DOCKER_HOST ?? '', networkMode: 'none' },
  });
  expect(cfg).toMatchObject({ status: 201 });
  // The agent's commands run only once its config passed the full check.
  const check = await call(page, `/api/v1/sandbox-configs/${cfg.json.id}/check`, 'POST');
  expect(check.status).toBe(202);
  await expect.poll(async () => (await call(page, `/api/v1/jobs/${check.json.id}`)).json.state, { timeout: 120_000, interval: 250 }).toBe('succeeded');
  const agent = await call(page, '/api/v1/agents', 'POST', { id: 'policy-agent', name: 'policy-agent', sandboxConfigId: cfg.json.id, riskProfile: PROFILE });
  expect(agent).toMatchObject({ status: 201 });
  await page.goto(`${server.base}/policy/approvals`);
  const settings = page.getByRole('form', { name: 'Exec settings' });
  await settings.getByLabel('When an exec needs approval').selectOption('202');
  await settings.getByLabel('Approval timeout (seconds)').fill('0');
  await settings.getByRole('alert').waitFor();
  await settings.getByLabel('Approval timeout (seconds)').fill('600');
  await settings.getByRole('button', { name: 'Save exec settings' }).click();
  await expect.poll(async () => (await call(page, '/api/v1/exec-policy/settings')).json).toMatchObject({ approvalMode: '202', approvalTimeoutSeconds: 600 });
  // The profile asks for nothing now (package installs are denied): move them back to approval for the agent.
  const agentId = agent.json.id as string;
  // The gateway execs with the agent's own token (a person's session does not exec as an agent).
  const minted = await call(page, '/api/v1/tokens', 'POST', { name: 'gw', permissions: ['agents.read', 'agents.exec'], agentIds: [agentId] });
  expect(minted.status, JSON.stringify(minted.json)).toBe(201);
  const gateway = new Client(server.base, { token: minted.json.token });
  const gw = async (path: string, body: unknown) => {
    const r = await gateway.req('POST', path, body);
    return { status: r.status, json: r.json };
  };
  const denied = await gw(`/api/v1/agents/${agentId}/exec`, { command: 'sudo ls' });
  expect(denied.status).toBe(200);
  expect(denied.json).toMatchObject({ decision: 'deny', outcome: 'denied' });
  const patched = await call(page, `/api/v1/agents/${agentId}`, 'PATCH', {
    revision: agent.json.revision,
    policyOverrides: { denyGroups: { package_install: 'approval' } },
  });
  expect(patched).toMatchObject({ status: 200 });
  // The agent's sandbox, started by an allowed command, gets a requirements file from the console's upload.
  const listed = await gw(`/api/v1/agents/${agentId}/exec`, { command: 'ls /workspace' });
  expect(listed.json).toMatchObject({ decision: 'allow', outcome: 'ran', exitCode: 0 });
  const uploaded = await page.evaluate(
    async (id) =>
      (await fetch(`/api/v1/sandboxes/${encodeURIComponent(id)}/files`, { method: 'POST', headers: { 'x-filename': 'requirements.txt' }, body: 'flask\n' }))
        .status,
    listed.json.sandboxId as string,
  );
  expect(uploaded).toBe(201);
  // The approval binds the whole request: stdin, cwd, timeout and the files the command names.
  const held = await gw(`/api/v1/agents/${agentId}/exec`, {
    command: 'pip install -r input/requirements.txt',
    cwd: '/workspace',
    stdin: 'y\n',
    timeoutMs: 30_000,
  });
  expect(held.status).toBe(202);
  expect(held.json).toMatchObject({ decision: 'approval', outcome: 'pending' });
  const approvalId = held.json.approvalId as string;

  // The profile is in use: its delete dialog names the agent and cannot be confirmed (the server
  // refuses such a delete all the same, as the integration tests check).
  await page.goto(`${server.base}/policy`);
  await page
    .getByRole('table', { name: 'Custom profiles' })
    .locator(`tr[data-profile="${PROFILE}"]`)
    .getByRole('button', { name: `Delete ${PROFILE}` })
    .click();
  const deleteDialog = page.getByRole('alertdialog');
  expect(await deleteDialog.getByTestId('profile-in-use').textContent()).toContain('policy-agent');
  expect(await deleteDialog.getByRole('button', { name: 'Delete profile' }).isDisabled()).toBe(true);
  await deleteDialog.getByRole('button', { name: 'Keep it' }).click();
  expect((await call(page, `/api/v1/exec-policy/profiles/${PROFILE}`)).status).toBe(200);
  expect(await page.locator(`tr[data-profile="${PROFILE}"] [data-slot="used-by"]`).textContent()).toContain('policy-agent');
  // The custom profiles are searchable, the search kept in the URL.
  const search = page.getByLabel('Search custom profiles');
  await search.fill('policy-agent');
  await page.locator(`tr[data-profile="${PROFILE}"]`).waitFor();
  await search.fill('no-such-profile');
  await page.getByText('No profile matches the search.').waitFor();
  expect(new URL(page.url()).searchParams.get('q')).toBe('no-such-profile');
  await search.fill('');

  // The pending request, with its countdown, approved after a confirmation.
  await page
    .getByRole('navigation', { name: 'Exec policy' })
    .getByRole('link', { name: /Approvals/ })
    .click();
  const pendingRow = page.getByRole('table', { name: 'Pending approvals' }).locator(`tr[data-approval="${approvalId}"]`);
  await pendingRow.waitFor();
  expect(await pendingRow.textContent()).toContain('pip install -r input/requirements.txt');
  const binding = pendingRow.getByTestId('approval-binding');
  expect(await binding.textContent()).toMatch(/cwd\/workspace.*timeout30 s/);
  expect(await binding.getByTestId('approval-stdin').textContent()).toMatch(/^sha256 [0-9a-f]{12}…$/);
  expect(await binding.getByTestId('approval-scripts').textContent()).toMatch(/^\/workspace\/input\/requirements\.txt · sha256 [0-9a-f]{12}…$/);
  expect(await pendingRow.locator('time.tabular-nums').textContent()).toMatch(/^\d+m \d\ds left$/);
  await pendingRow.getByRole('button', { name: 'Approve' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Approve this command?' });
  expect(await confirm.textContent()).toContain('pip install -r input/requirements.txt');
  expect(await confirm.getByTestId('approval-stdin').textContent()).toMatch(/^sha256 [0-9a-f]{12}…$/);
  await confirm.getByRole('button', { name: 'Approve and let it run' }).click();
  await page.getByRole('table', { name: 'Approval history' }).locator(`tr[data-approval="${approvalId}"][data-state="approved"]`).waitFor();
  expect((await call(page, `/api/v1/exec-approvals/${approvalId}`)).json).toMatchObject({ state: 'approved', decidedBy: expect.any(String) });
  await page.getByLabel('Filter history by state').selectOption('rejected');
  await page.getByText('No decided requests in state rejected.').waitFor();
  expect(new URL(page.url()).searchParams.get('state')).toBe('rejected');

  // The agent's exec log: its three execs, filterable by decision.
  await page.goto(`${server.base}/policy/exec-log?agent=${agentId}`);
  const log = page.getByRole('table', { name: 'Exec log' });
  await log.locator('tr[data-exec]').nth(2).waitFor();
  expect(await log.locator('tr[data-exec]').evaluateAll((els) => els.map((e) => e.getAttribute('data-decision')).sort())).toEqual([
    'allow',
    'approval',
    'deny',
  ]);
  await page.getByLabel('Decision', { exact: true }).selectOption('deny');
  await expect.poll(() => log.locator('tr[data-exec]').count()).toBe(1);
  expect(await log.locator('tr[data-exec]').textContent()).toContain('sudo ls');
  expect(new URL(page.url()).searchParams.get('decision')).toBe('deny');
  await page.getByRole('img', { name: /Stacked bar chart of 1 exec decisions/ }).waitFor();

  // The agent's exec log replayed in the editor: the three recorded commands, decided before and after.
  await page.goto(`${server.base}/policy/profiles/${PROFILE}`);
  await page.getByLabel('Commands from').selectOption('agent');
  await page.getByLabel('Agent', { exact: true }).selectOption(agentId);
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  const fromLog = page.locator('[data-slot="replay-results"]');
  await fromLog.waitFor();
  expect(await fromLog.locator('[data-stat="Commands"] > div').first().textContent()).toBe('3');

  // A viewer sees the same pages with the write controls disabled and the role named.
  const owner = await login(server.base, 'owner@example.com');
  const made = await owner.req('POST', '/api/v1/users', { email: 'viewer@example.com', name: 'Viewer', role: 'viewer', password: PASSWORD });
  expect(made.status).toBe(201);
  const viewer = await openBrowser();
  try {
    await signIn(viewer.page, server.base, 'viewer@example.com', PASSWORD);
    await viewer.page.goto(`${server.base}/policy`);
    expect(await viewer.page.getByRole('button', { name: 'New profile' }).isDisabled()).toBe(true);
    await viewer.page.goto(`${server.base}/policy/profiles/${PROFILE}`);
    const save = viewer.page.getByRole('button', { name: 'Save profile' });
    await save.waitFor();
    expect(await save.isDisabled()).toBe(true);
    await save.locator('xpath=..').hover();
    await viewer.page
      .getByRole('tooltip')
      .getByText(/Needs the admin role/)
      .first()
      .waitFor();
    await viewer.page.goto(`${server.base}/policy/approvals`);
    await viewer.page.getByRole('table', { name: 'Approval history' }).locator(`tr[data-approval="${approvalId}"]`).waitFor();
  } finally {
    await viewer.close();
  }
});

const PAGES = ['/policy', '/policy/tester?command=sudo%20ls', '/policy/approvals', '/policy/exec-log', '/policy/profiles/balanced', '/policy/new'];

/** Opens a page and waits until its data arrived (no skeletons, nothing busy). */
async function open(page: Page, path: string) {
  await page.goto(server.base + path);
  await page.locator('main h1').first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
  await page.waitForFunction(() => !document.querySelector('main .animate-pulse, main [aria-busy="true"]'), null, { timeout: 30_000 }).catch(() => {});
}

it('the policy pages pass axe in both themes and do not scroll sideways on a phone', async () => {
  const { page } = browser;
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of PAGES) {
      await open(page, path);
      found.push(...(await seriousViolations(page, `${scheme} ${path}`)));
    }
  }
  expect(found).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of PAGES) {
    await open(page, path);
    expect({ path, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, width: 390 });
  }
});
