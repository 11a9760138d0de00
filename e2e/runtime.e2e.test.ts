// Runtime & Packages in Chromium, section by section: the install prefix follows the packages tab; a
// hostile spec is refused as you type; an npm package from the real registry is installed from the page
// with its log followed live and listed as installed here; a check finds its update, Update All applies
// it in a dialog that stays open with the row's live result, the row then offers no Update, and the
// package is uninstalled.
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
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it('installs, updates (Update All) and uninstalls an npm package from the page', async () => {
  const page = browser.page;
  await signIn(page, server.base, 'owner@example.com', PASSWORD);
  await page.goto(`${server.base}/runtime`);
  await page.getByText('node', { exact: true }).first().waitFor();
  const sections = page.getByRole('navigation', { name: 'Runtime sections' });

  // The Packages section, Node tab: the install box's prefix follows the tab.
  await sections.getByRole('link', { name: 'Packages' }).click();
  await page.waitForURL(/[?&]tab=packages\b/);
  await page.getByRole('tab', { name: 'Node' }).click();
  expect(await page.getByLabel('Package manager', { exact: true }).inputValue()).toBe('npm');
  await page.getByRole('tab', { name: 'Python' }).click();
  expect(await page.getByLabel('Package manager', { exact: true }).inputValue()).toBe('pip');
  await page.getByRole('tab', { name: 'Node' }).click();

  const spec = page.getByLabel('Package spec');
  await spec.fill("a');require(");
  expect(await page.getByRole('button', { name: 'Install', exact: true }).isDisabled()).toBe(true);

  await spec.fill('is-number@6.0.0');
  await page.getByRole('button', { name: 'Install', exact: true }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('log', { name: 'Job log' }).getByText('$ ', { exact: false }).first().waitFor();
  await drawer.locator('span[data-state="succeeded"]').waitFor({ timeout: 180_000 });
  await page.keyboard.press('Escape');

  const row = page.getByRole('table', { name: 'Installed packages' }).getByRole('row').filter({ hasText: 'is-number' });
  await row.getByText('6.0.0', { exact: true }).waitFor();
  await row.getByText('Installed here').waitFor();

  // On a phone each row is a card and nothing widens the page: not the table, not the install
  // history's long job titles. The table's own box is a named region a keyboard can scroll.
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('install-history').getByTestId('history-row').first().waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
  const region = page.getByRole('region', { name: 'Installed packages, scrolls sideways' });
  expect(await region.getAttribute('tabindex')).toBe('0');
  expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const uninstall = row.getByRole('button', { name: 'Uninstall' });
  const box = await uninstall.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  if (viewport) await page.setViewportSize(viewport);

  // The Updates section: once no check is running (a background one may have started on load),
  // check again; it must find is-number 6.0.0 → 7.0.0 on the real registry.
  await sections.getByRole('link', { name: /^Updates/ }).click();
  await page.waitForURL(/[?&]tab=updates\b/);
  const bar = page.getByTestId('updates-bar');
  const refresh = bar.getByRole('button', { name: 'Check for updates', exact: true });
  await refresh.waitFor({ timeout: 120_000 });
  await refresh.click();
  const updateRow = page.getByRole('table', { name: 'Available updates' }).getByRole('row').filter({ hasText: 'is-number' });
  await updateRow.waitFor({ timeout: 120_000 });
  expect((await updateRow.textContent())?.replace(/\s+/g, '')).toContain('6.0.0→7.0.0');
  expect(await updateRow.locator('[data-source="npm"]').count()).toBe(1);
  expect(await bar.textContent()).toMatch(/\d+ updates? available/);
  await refresh.waitFor({ timeout: 120_000 });

  // Update All: is-number is offered and selected; after Apply the dialog stays open with the row's outcome.
  await bar.getByRole('button', { name: 'Update All', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Update All' });
  const choice = dialog.getByRole('listitem').filter({ hasText: 'is-number' });
  expect(await choice.getByRole('checkbox').isChecked()).toBe(true);
  await dialog.getByRole('button', { name: /^Apply \d+ updates?$/ }).click();
  const runRow = dialog.locator('li[data-spec="npm:is-number"]');
  await dialog.locator('li[data-spec="npm:is-number"][data-state="succeeded"]').waitFor({ timeout: 180_000 });
  expect(await runRow.textContent()).toContain('Updated to 7.0.0');
  expect(await dialog.getByRole('link', { name: 'Open the Update All job' }).getAttribute('href')).toMatch(/^\/jobs\/[0-9a-f-]{36}$/);
  await dialog.getByRole('button', { name: 'Done', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  await updateRow.waitFor({ state: 'detached', timeout: 60_000 });
  const pending = await page.evaluate(async () => (await fetch('/api/v1/packages/updates')).json());
  expect(pending.updates.map((u: { spec: string }) => u.spec)).not.toContain('npm:is-number');

  // Back in Packages (still on the Node tab): at its latest, is-number offers no enabled Update.
  await sections.getByRole('link', { name: 'Packages' }).click();
  await row.getByText('7.0.0', { exact: true }).waitFor({ timeout: 60_000 });
  await row.getByText('Installed here').waitFor();
  await expect.poll(() => row.getByRole('button', { name: 'Update' }).isDisabled(), { timeout: 30_000 }).toBe(true);

  await row.getByRole('button', { name: 'Uninstall' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Uninstall' }).click();
  await page.getByRole('dialog').locator('span[data-state="succeeded"]').waitFor({ timeout: 180_000 });
  await page.keyboard.press('Escape');
  await row.waitFor({ state: 'detached', timeout: 60_000 });

  const list = await page.evaluate(async () => (await fetch('/api/v1/packages?manager=npm&managed=true')).json());
  expect(list.items.map((p: { name: string }) => p.name)).not.toContain('is-number');
});
