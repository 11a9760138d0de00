// The Network rules of a sandbox config in Chromium, on the real Docker engine with the offline
// busybox image: a Docker config passes its full check and runs one sandbox; in the Network dialog an
// entry with a scheme is refused inline, a CIDR is added as its normalised chip, a domain without
// deny-all is flagged until deny-by-default is on, a chip is removed by keyboard; the save reaches the
// running sandbox ("updated") and the tester names the rule for an allowed and a denied destination.
// The dialog passes axe in both themes and fits a phone; a viewer sees it read-only.
import { randomBytes } from 'node:crypto';
import Docker from 'dockerode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LABEL_NETWORK_OWNER } from '../lib/network/docker/networks';
import { deleteTable } from '../lib/network/docker/nft';
import { dockerUnavailable } from '../test/helpers/docker';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { seriousViolations } from './helpers/axe';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { type Client, PASSWORD, seedUsers } from './helpers/session';

const CONFIG_LABEL = 'skilldock.config';
const NAME = `e2e-net-${Date.now().toString(36)}`;
// The server's own nft table and network owner label, so nothing of another run or server is touched.
const TABLE = `skilldock_t${randomBytes(4).toString('hex')}`;

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let viewerBrowser: Awaited<ReturnType<typeof openBrowser>> | undefined;
let docker: Docker;
let owner: Client;
let configId = '';
let sandboxId = '';

beforeAll(async () => {
  if (dockerUnavailable) return;
  docker = new Docker();
  const image = await ensureBusyboxImage(docker);
  await ensureBuilt();
  server = await startServer({ env: { DOCKER_HOST: process.env.DOCKER_HOST ?? '', SKILLDOCK_NFT_TABLE: TABLE } });
  ({ owner } = await seedUsers(server));
  browser = await openBrowser();

  const created = await owner.req('POST', '/api/v1/sandbox-configs', { name: NAME, backend: 'docker', config: { image, host: process.env.DOCKER_HOST ?? '' } });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  configId = created.json.id;
  const check = await owner.req('POST', `/api/v1/sandbox-configs/${configId}/check`);
  expect(check.status).toBe(202);
  let job = check.json;
  for (let i = 0; i < 900 && !['succeeded', 'failed', 'canceled'].includes(job.state); i++) {
    await new Promise((r) => setTimeout(r, 200));
    job = (await owner.req('GET', `/api/v1/jobs/${check.json.id}`)).json;
  }
  const failed = ((job.result?.probes ?? []) as { name: string; status: string; reason?: string }[]).filter((p) => p.status !== 'pass');
  expect({ state: job.state, passed: job.result?.passed, failed }).toEqual({ state: 'succeeded', passed: true, failed: [] });
  const started = await owner.req('POST', '/api/v1/sandboxes', { configId });
  expect(started.status, JSON.stringify(started.json)).toBe(201);
  sandboxId = started.json.id;
}, 600_000);

afterAll(async () => {
  if (owner && sandboxId) await owner.req('DELETE', `/api/v1/sandboxes/${encodeURIComponent(sandboxId)}`).catch(() => {});
  if (docker && configId) {
    for (const c of await docker.listContainers({ all: true, filters: { label: [`${CONFIG_LABEL}=${configId}`] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
  }
  await viewerBrowser?.close();
  await browser?.close();
  await server?.stop();
  // The rules outlive the server by design (sandboxes stay confined while it is down): remove this run's.
  if (docker)
    for (const n of await docker.listNetworks({ filters: { label: [`${LABEL_NETWORK_OWNER}=${TABLE}`] } }))
      await docker
        .getNetwork(n.Id)
        .remove()
        .catch(() => {});
  if (server) await deleteTable(TABLE).catch(() => {});
});

async function openNetwork(page: Page) {
  await page.goto(`${server.base}/sandboxes`);
  await page.getByRole('button', { name: `Network rules of ${NAME}` }).click();
  const dialog = page.getByRole('dialog', { name: `Network rules of ${NAME}` });
  await dialog.locator('[data-slot="network-editor"]').waitFor();
  return dialog;
}

async function axe(page: Page) {
  return seriousViolations(page, 'dialog', (b) => b.include('[role="dialog"]'));
}

it.skipIf(!!dockerUnavailable)(
  'edits the rules with inline validation, saves them to the running sandbox and tests destinations',
  async () => {
    const { page } = browser;
    await signIn(page, server.base, 'owner@example.com', PASSWORD);
    const dialog = await openNetwork(page);
    const enforcement = dialog.locator('[data-slot="network-enforcement"]');
    expect(await enforcement.getAttribute('data-enforced-by')).toBe('host-firewall+proxy');
    await enforcement.getByText('host firewall + proxy').waitFor();

    // An entry with a port is refused: the rule it breaks shows under the input as it is typed, and Enter adds nothing.
    const allow = dialog.getByLabel('Allow', { exact: true });
    await allow.fill('x.com:443');
    const allowError = dialog.locator('#net-allowOut-error');
    await expect.poll(() => allowError.textContent()).toContain('"x.com:443"');
    expect(await allow.getAttribute('aria-invalid')).toBe('true');
    await allow.press('Enter');
    expect(await dialog.locator('[data-list="allowOut"] li[data-entry]').count()).toBe(0);

    // A CIDR is added in its network form.
    await allow.fill('10.1.2.3/8');
    await expect.poll(() => allowError.textContent()).toContain('10.0.0.0/8');
    await allow.press('Enter');
    await dialog.locator('[data-list="allowOut"] li[data-entry="10.0.0.0/8"]').waitFor();
    expect(await allow.inputValue()).toBe('');

    // A pasted URL is taken as its host. A domain needs deny-all: flagged, Save refused, until deny-by-default is switched on.
    await allow.fill('https://someone@Example.COM.:8443/path?q=1');
    await expect.poll(() => allowError.textContent()).toContain('example.com');
    await allow.press('Enter');
    await dialog.locator('[data-list="allowOut"] li[data-entry="example.com"]').waitFor();
    const issues = dialog.locator('[data-slot="network-issues"]');
    await expect.poll(() => issues.textContent()).toContain('deny-all');
    expect(await dialog.getByRole('button', { name: 'Save rules' }).isDisabled()).toBe(true);
    await issues.getByRole('button', { name: 'Turn on deny by default' }).click();
    await issues.waitFor({ state: 'hidden' });
    expect(await dialog.getByRole('switch', { name: 'Deny by default' }).getAttribute('aria-checked')).toBe('true');

    // Deny entries: one added, then removed from the keyboard.
    const deny = dialog.getByLabel('Deny', { exact: true });
    await deny.fill('203.0.113.9');
    await deny.press('Enter');
    const chip = dialog.locator('[data-list="denyOut"] li[data-entry="203.0.113.9/32"] button');
    await chip.focus();
    await page.keyboard.press('Delete');
    await chip.waitFor({ state: 'detached' });
    await deny.fill('203.0.113.0/24');
    await deny.press('Enter');

    // The fixed ranges are there, read-only and collapsed.
    const blocked = dialog.locator('details', { hasText: 'Always blocked' });
    expect(await blocked.getAttribute('open')).toBeNull();
    await blocked.locator('summary').click();
    await blocked.getByText('169.254.0.0/16').waitFor();

    // Before the save (which puts the rules in force at once), the tester tries the rules as edited:
    // the saved policy is still open, the draft denies 203.0.113.0/24.
    const tester = dialog.locator('[data-slot="network-tester"]');
    const destination = tester.getByLabel('Destination');
    const answer = tester.getByRole('status', { name: 'Test result' });
    await destination.fill('203.0.113.7');
    await destination.press('Enter');
    await answer.waitFor();
    expect(await answer.getAttribute('data-basis')).toBe('draft');
    expect(await answer.getAttribute('data-allowed')).toBe('false');
    await answer.getByText('Tested against your unsaved changes').waitFor();

    expect(await axe(page)).toEqual([]);

    // Save: the running sandbox took the change.
    await dialog.getByRole('button', { name: 'Save rules' }).click();
    await page.getByText(`Saved the network rules of ${NAME}`).waitFor();
    const result = dialog.locator('[data-slot="network-save-result"]');
    await result.waitFor({ timeout: 60_000 });
    const reached = await result
      .locator('li[data-sandbox]')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-sandbox'), e.getAttribute('data-status')]));
    expect(reached).toEqual([[sandboxId, 'updated']]);
    await result.getByText('updated').waitFor();
    const stored = await owner.req('GET', `/api/v1/sandbox-configs/${configId}/network`);
    expect(stored.json.policy).toMatchObject({ denyEgressByDefault: true, allowOut: ['10.0.0.0/8', 'example.com'], denyOut: ['203.0.113.0/24'] });

    // Saved, the tester asks the saved rules: an allowed and a denied destination, each with its rule.
    await destination.fill('10.20.30.40:8080');
    await tester.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => answer.getAttribute('data-basis')).toBe('saved');
    await answer.getByText('Tested against the saved rules').waitFor();
    expect(await answer.getAttribute('data-allowed')).toBe('true');
    expect(await answer.locator('[data-slot="network-test-rule"]').textContent()).toContain('10.0.0.0/8');
    await destination.fill('203.0.113.7');
    await tester.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => answer.getAttribute('data-allowed')).toBe('false');
    expect(await answer.locator('[data-slot="network-test-rule"]').textContent()).toContain('203.0.113.0/24');
    await answer.getByText('denied').waitFor();

    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await axe(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });

    // On a phone the dialog fits the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);

    // The same rules are the Network step of the config's editor.
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const editor = page.getByRole('dialog', { name: `Edit ${NAME}` });
    await editor.getByRole('button', { name: '4. Network' }).click();
    await editor.locator('[data-list="allowOut"] li[data-entry="10.0.0.0/8"]').waitFor();
    expect(await editor.getByRole('switch', { name: 'Deny by default' }).getAttribute('aria-checked')).toBe('true');
  },
  300_000,
);

it.skipIf(!!dockerUnavailable)('a viewer sees the rules read-only, with the role needed, and may still test', async () => {
  viewerBrowser = await openBrowser();
  const { page } = viewerBrowser;
  await signIn(page, server.base, 'viewer@example.com', PASSWORD);
  const dialog = await openNetwork(page);
  await dialog.locator('[data-list="allowOut"] li[data-entry="10.0.0.0/8"]').waitFor();
  expect(await dialog.getByLabel('Allow', { exact: true }).isDisabled()).toBe(true);
  expect(await dialog.getByRole('switch', { name: 'Deny by default' }).isDisabled()).toBe(true);
  const save = dialog.getByRole('button', { name: 'Save rules' });
  expect(await save.isDisabled()).toBe(true);
  await save.locator('xpath=..').hover();
  await page
    .getByRole('tooltip')
    .filter({ hasText: /Needs the \w+ role/ })
    .first()
    .waitFor();
  await dialog.getByRole('textbox', { name: 'Destination' }).fill('10.9.9.9:443');
  await dialog.getByRole('button', { name: 'Test' }).click();
  expect(await dialog.getByRole('status', { name: 'Test result' }).getAttribute('data-allowed')).toBe('true');
});
