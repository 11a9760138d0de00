// Package sources settings, the skill dependency check and the install history, in Chromium as the owner:
// an invalid registry is refused as you type; a changed binaries list is saved, survives a reload and is
// detected on /runtime; a SKILL.md's deps are checked (with the invalid entry reported on its line), the
// missing npm package is installed from the real registry through the deps install job, and the install
// shows in the history; a viewer sees the same cards with the write controls disabled.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { PASSWORD } from './helpers/session';

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer({ env: { SKILLDOCK_ADMIN_EMAIL: 'owner@example.com', SKILLDOCK_ADMIN_PASSWORD: PASSWORD } });
  browser = await openBrowser();
  await signIn(browser.page, server.base, 'owner@example.com', PASSWORD);
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const SKILL_MD = [
  '---',
  'name: extras-skill',
  'description: checks deps',
  'deps:',
  '  - npm:is-number@7.0.0',
  '  - system:sh',
  '  - pip:foo;rm -rf /',
  '---',
  '',
  '# Extras skill',
  '',
].join('\n');
// 1-based line of the invalid entry in SKILL_MD.
const BAD_LINE = SKILL_MD.split('\n').findIndex((l) => l.includes('pip:foo;')) + 1;

it('saves package sources with validation as you type, and the runtime check uses the binaries', async () => {
  const page = browser.page;
  await page.goto(`${server.base}/settings#packages`);
  const form = page.getByTestId('runtime-settings-form');
  const registry = form.getByLabel('npm registry URL');
  const binaries = form.getByLabel('Binaries to detect');
  const save = form.getByRole('button', { name: 'Save' });
  await registry.waitFor();
  // Loaded from the server: the default binaries list.
  await expect.poll(() => binaries.inputValue()).toContain('git');

  await registry.fill('ftp://x');
  await form.getByText('The npm registry must be an http(s) URL').waitFor();
  expect(await registry.getAttribute('aria-invalid')).toBe('true');
  expect(await save.isDisabled()).toBe(true);
  // Enter on the invalid form sends nothing either.
  await registry.press('Enter');
  const stored = await page.evaluate(async () => (await fetch('/api/v1/settings/runtime')).json());
  expect(stored.npmRegistry).toBe('');

  await registry.fill('');
  await binaries.fill('git sh');
  await form.getByRole('list', { name: 'Binaries that will be detected' }).getByText('sh', { exact: true }).waitFor();
  await form.getByText('Unsaved: binaries to detect').waitFor();
  expect(await save.isDisabled()).toBe(false);
  await save.click();
  await page.getByText('Package sources saved').waitFor();
  await form.getByText('No unsaved changes').waitFor();

  await page.reload();
  await expect.poll(() => page.getByTestId('runtime-settings-form').getByLabel('Binaries to detect').inputValue()).toBe('git sh');
  const after = await page.evaluate(async () => (await fetch('/api/v1/settings/runtime')).json());
  expect(after.binaries).toEqual(['git', 'sh']);
  expect(after.npmRegistry).toBe('');

  await page.goto(`${server.base}/runtime`);
  const sh = page.getByTestId('runtime-sh');
  await sh.waitFor();
  expect(await sh.getAttribute('data-available')).toBe('true');
  // A default binary that is no longer in the list is no longer detected.
  expect(await page.getByTestId('runtime-pandoc').count()).toBe(0);
});

it('checks a SKILL.md, installs the missing deps and lists the install in the history', async () => {
  const page = browser.page;
  await page.goto(`${server.base}/runtime?tab=deps`);
  const card = page.getByTestId('deps-check');
  await card.getByLabel('SKILL.md').fill(SKILL_MD);
  await card.getByRole('button', { name: 'Check', exact: true }).click();

  const row = (spec: string) => card.locator(`tr[data-testid="dep-row"][data-spec="${spec}"]`);
  await row('system:sh').waitFor();
  expect(await row('system:sh').getAttribute('data-status')).toBe('ok');
  expect(await row('npm:is-number@7.0.0').getAttribute('data-status')).toBe('missing');
  expect(await row('npm:is-number@7.0.0').getByText('declared').count()).toBe(1);
  // The invalid entry is not a dependency, but it is reported with its line.
  expect(await card.locator('tr[data-testid="dep-row"]').count()).toBe(2);
  const diag = card.getByTestId('dep-diagnostic');
  expect(await diag.count()).toBe(1);
  expect(await diag.getAttribute('data-line')).toBe(String(BAD_LINE));
  await diag.getByText(`SKILL.md line ${BAD_LINE}`).waitFor();
  await diag.getByText('pip:foo;rm -rf /', { exact: true }).waitFor();
  await diag.getByText(/shell metacharacter/).waitFor();

  await card.getByRole('button', { name: 'Install missing (1)' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByText('npm:is-number@7.0.0').waitFor();
  await confirm.getByRole('button', { name: 'Install 1' }).click();

  const job = card.getByTestId('deps-install-job');
  await job.waitFor();
  const jobId = await job.getAttribute('data-job-id');
  expect(jobId).toBeTruthy();
  // The button stays disabled while the job runs.
  expect(
    ['succeeded', 'failed', 'canceled'].includes((await job.getAttribute('data-state')) ?? '') ||
      (await card.getByRole('button', { name: /Install missing/ }).isDisabled()),
  ).toBe(true);
  await card.locator('[data-testid="deps-install-job"][data-state="succeeded"]').waitFor({ timeout: 240_000 });
  expect(await job.getByRole('link').getAttribute('href')).toBe(`/jobs/${jobId}`);

  await card.getByRole('button', { name: 'Check again' }).click();
  await card.locator('tr[data-testid="dep-row"][data-spec="npm:is-number@7.0.0"][data-status="ok"]').waitFor({ timeout: 60_000 });
  expect(await row('system:sh').getAttribute('data-status')).toBe('ok');
  expect(await card.getByRole('button', { name: 'Install missing (0)' }).isDisabled()).toBe(true);

  // The install history is in the Packages section.
  await page.getByRole('navigation', { name: 'Runtime sections' }).getByRole('link', { name: 'Packages' }).click();
  const history = page.getByTestId('install-history');
  const entry = history.locator('[data-testid="history-row"]').filter({ has: page.locator(`a[href="/jobs/${jobId}"]`) });
  await entry.waitFor({ timeout: 60_000 });
  await history.locator(`[data-testid="history-row"][data-state="succeeded"] a[href="/jobs/${jobId}"]`).waitFor({ timeout: 60_000 });
  // The child install of is-number is listed too.
  await history
    .getByRole('link', { name: /is-number/ })
    .first()
    .waitFor();
  await history.getByRole('img', { name: /Bar chart/ }).waitFor();
});

it('shows a viewer the same cards read-only, with the role that is needed', async () => {
  const created = await browser.page.evaluate(async (password) => {
    const r = await fetch('/api/v1/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'viewer@example.com', name: 'Viewer', role: 'viewer', password }),
    });
    return r.status;
  }, PASSWORD);
  expect(created).toBe(201);
  const viewer = await openBrowser();
  try {
    const page = viewer.page;
    await signIn(page, server.base, 'viewer@example.com', PASSWORD);
    await page.goto(`${server.base}/settings#packages`);
    const form = page.getByTestId('runtime-settings-form');
    const binaries = form.getByLabel('Binaries to detect');
    await expect.poll(() => binaries.inputValue()).toBe('git sh');
    expect(await binaries.isDisabled()).toBe(true);
    expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await form.getByText(/Read only: Needs the admin role/).waitFor();

    await page.goto(`${server.base}/runtime?tab=deps`);
    const card = page.getByTestId('deps-check');
    await card.getByLabel('SKILL.md').fill(['---', 'name: v', 'deps:', '  - npm:is-odd@3.0.1', '---', ''].join('\n'));
    // The check runs processes over the pasted text (packages.write), so a viewer cannot start it.
    expect(await card.getByRole('button', { name: 'Check', exact: true }).isDisabled()).toBe(true);
    await card.getByText(/Needs the admin role/).waitFor();
  } finally {
    await viewer.close();
  }
});
