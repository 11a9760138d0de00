// Runtime & Packages in Chromium: a hostile spec is refused as you type; an npm package from the real
// registry is installed from the page with its log followed live, listed as installed here, and uninstalled.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, startServer, type RunningServer } from './helpers/server';
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

it('installs and uninstalls an npm package from the page', async () => {
  const page = browser.page;
  await signIn(page, server.base, 'owner@example.com', PASSWORD);
  await page.goto(`${server.base}/runtime`);
  await page.getByText('node', { exact: true }).first().waitFor();

  const spec = page.getByLabel('Package spec');
  await page.getByLabel('Package manager', { exact: true }).selectOption('npm');
  await spec.fill("a');require(");
  expect(await page.getByRole('button', { name: 'Install' }).isDisabled()).toBe(true);

  await spec.fill('is-number@6.0.0');
  await page.getByRole('button', { name: 'Install' }).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('log', { name: 'Job log' }).getByText('$ ', { exact: false }).first().waitFor();
  await drawer.locator('span[data-state="succeeded"]').waitFor({ timeout: 180_000 });
  await page.keyboard.press('Escape');

  await page.getByRole('tab', { name: 'Node' }).click();
  const row = page.getByRole('row').filter({ hasText: 'is-number' });
  await row.getByText('6.0.0').waitFor();
  await row.getByText('Installed here').waitFor();

  await row.getByRole('button', { name: 'Uninstall' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Uninstall' }).click();
  await page.getByRole('dialog').locator('span[data-state="succeeded"]').waitFor({ timeout: 180_000 });
  await page.keyboard.press('Escape');
  await row.waitFor({ state: 'detached', timeout: 60_000 });

  const list = await page.evaluate(async () => (await fetch('/api/v1/packages?manager=npm&managed=true')).json());
  expect(list.items.map((p: { name: string }) => p.name)).not.toContain('is-number');
});
