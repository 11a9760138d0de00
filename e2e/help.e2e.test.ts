// Help: a viewer opens the documentation from the sidebar, follows links between pages (rewritten to
// /help/<page>, anchors included), finds the configuration table, jumps to a page from the command
// palette, and gets a 404 for any name that is not on the Help list.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { PASSWORD, seedUsers } from './helpers/session';

let server: RunningServer;
let page: Page;
let close: () => Promise<void>;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
  await seedUsers(server);
  const b = await openBrowser();
  page = b.page;
  close = b.close;
  await signIn(page, server.base, 'viewer@example.com', PASSWORD);
});
afterAll(async () => {
  await close?.();
  await server?.stop();
});

const doc = () => page.getByTestId('help-markdown');
const title = () => page.getByRole('heading', { level: 1 });

it('opens Help from the sidebar and follows links between pages to the configuration table', async () => {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Help', exact: true }).click();
  await page.waitForURL(/\/help$/);
  await expect.poll(() => title().textContent()).toBe('Skilldock documentation');

  await doc().getByRole('link', { name: 'Operations', exact: true }).click();
  await page.waitForURL(/\/help\/operations$/);
  await expect.poll(() => title().textContent()).toBe('Operations');
  expect(await page.getByRole('navigation', { name: 'Help pages' }).getByRole('link', { name: 'Operations' }).getAttribute('aria-current')).toBe('page');

  await doc().getByRole('link', { name: 'Configuration', exact: true }).first().click();
  await page.waitForURL(/\/help\/configuration$/);
  const table = doc().getByRole('table');
  await table.waitFor();
  expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Variable', 'Default', 'Meaning']);
  expect(await table.getByRole('cell', { name: 'SKILLDOCK_DATA_DIR', exact: true }).count()).toBe(1);
  expect(await table.getByRole('row').count()).toBeGreaterThan(30);
});

it('lands on the heading a link names', async () => {
  await page.goto(`${server.base}/help/exec-policy`);
  await doc().getByRole('link', { name: 'Sandboxes: isolation' }).click();
  await page.waitForURL(/\/help\/sandboxes#isolation-one-principal-per-sandbox$/);
  expect(await page.locator('#isolation-one-principal-per-sandbox').textContent()).toBe('Isolation: one principal per sandbox');
});

it('jumps to a Help page from the command palette', async () => {
  await page.goto(`${server.base}/overview`);
  await page.keyboard.press('Control+k');
  await page.getByPlaceholder(/Go to or do/).fill('Benchmarks');
  await page.getByRole('option', { name: /Help: Benchmarks/ }).click();
  await page.waitForURL(/\/help\/benchmarks$/);
  await expect.poll(() => title().textContent()).toBe('Benchmarks');
});

it('answers 404 for any page that is not on the list', async () => {
  for (const name of ['nope', '..%2FREADME', 'README', 'index.md']) {
    const r = await page.goto(`${server.base}/help/${name}`);
    expect(r?.status(), name).toBe(404);
  }
});
