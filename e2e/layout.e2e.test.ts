// The console's shell in Chromium: every top-level page at a tablet width in the light theme and at
// a phone width in the dark theme — no sideways scroll, the account menu (role, Sign out) reachable,
// and no serious or critical WCAG 2.1 A/AA violation from axe-core (the login and not-found pages in
// both themes too); the navigation drawer below the md breakpoint; sign-out stays on the host the
// operator used; the command palette offers actions and finds jobs by title.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './helpers/axe';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { PASSWORD, seedUsers } from './helpers/session';

const PAGES = [
  '/overview',
  '/runtime',
  '/runtime?tab=packages',
  '/skills',
  '/jobs',
  '/audit',
  '/settings',
  '/sandboxes',
  '/sandboxes/instances',
  '/sandboxes/terminals',
  '/gateways',
  '/api-docs',
  '/sandboxes/artifacts',
  '/help',
  '/help/configuration',
];

let server: RunningServer;
const browsers: Awaited<ReturnType<typeof openBrowser>>[] = [];

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
  await seedUsers(server);
});
afterAll(async () => {
  for (const b of browsers) await b.close();
  await server?.stop();
});

async function browserAs(email: string): Promise<Page> {
  const b = await openBrowser();
  browsers.push(b);
  await signIn(b.page, server.base, email, PASSWORD);
  return b.page;
}

/** Opens a console page and waits until its data has arrived (no request in flight, no skeletons). */
async function open(page: Page, path: string) {
  await page.goto(server.base + path);
  await page.locator('main h1').first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
  await page.waitForFunction(() => !document.querySelector('main .animate-pulse, main [aria-busy="true"]'), null, { timeout: 30_000 }).catch(() => {});
}

/** Ctrl+K, retried until the shell has hydrated and the palette shows its input. */
async function openPalette(page: Page) {
  const input = page.getByPlaceholder(/Go to or do/);
  await expect
    .poll(async () => {
      if (!(await input.isVisible())) await page.keyboard.press('Control+k');
      return input.isVisible();
    })
    .toBe(true);
  return input;
}

const widths = (page: Page) => page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));

// The API page embeds Scalar's reference renderer: its markup is not ours to change (its colours are
// themed in components/api-docs/scalar-overrides.css); the page around it is checked.
const axe = (page: Page, label: string) => seriousViolations(page, label, (b) => b.exclude('.scalar-app'));

describe.each([
  [768, 'light'],
  [390, 'dark'],
] as const)('at %i px in the %s theme', (width, scheme) => {
  it('the login page has no serious or critical violations', async () => {
    const b = await openBrowser();
    browsers.push(b);
    await b.page.emulateMedia({ colorScheme: scheme });
    await b.page.setViewportSize({ width, height: 844 });
    await b.page.goto(`${server.base}/login`);
    await b.page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await axe(b.page, '/login')).toEqual([]);
  });

  it('no page scrolls sideways or has a serious violation, and the role and Sign out are reachable', async () => {
    const page = await browserAs('owner@example.com');
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 844 });
    const found: string[] = [];
    for (const path of PAGES) {
      await open(page, path);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
      expect({ path, ...(await widths(page)) }).toEqual({ path, scroll: width, viewport: width });
      found.push(...(await axe(page, path)));
      await expect.poll(() => page.getByTestId('current-role').isVisible()).toBe(true);
      await page.getByTestId('current-user').click();
      const signOut = page.getByRole('menuitem', { name: 'Sign out' });
      await signOut.waitFor();
      const box = await signOut.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      await page.keyboard.press('Escape');
      await signOut.waitFor({ state: 'hidden' });
    }
    await page.goto(`${server.base}/no-such-page`);
    await page.getByText('This page does not exist').waitFor();
    found.push(...(await axe(page, '/no-such-page')));
    expect(found).toEqual([]);
  });
});

it('below the md breakpoint the sections are a drawer with labels and the current one marked', async () => {
  const page = await browserAs('admin@example.com');
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/audit');
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const drawer = page.getByRole('dialog');
  const current = drawer.getByRole('link', { name: 'Audit log' });
  expect(await current.getAttribute('aria-current')).toBe('page');
  for (const label of ['Overview', 'Runtime & Packages', 'Skills', 'Jobs', 'Settings']) await drawer.getByRole('link', { name: label }).waitFor();
  await drawer.getByRole('link', { name: 'Jobs' }).click();
  await page.waitForURL(/\/jobs$/);
  await drawer.waitFor({ state: 'hidden' });
});

it('signing out from 127.0.0.1 stays on 127.0.0.1, and the login page names the public URL it differs from', async () => {
  // The server runs with the default public URL, http://localhost:PORT.
  const page = await browserAs('viewer@example.com');
  expect(new URL(page.url()).hostname).toBe('127.0.0.1');
  await page.getByTestId('current-user').click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login$/);
  expect(new URL(page.url()).host).toBe(`127.0.0.1:${server.port}`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  // Signed out for real: the console sends the browser back to the login page.
  await page.goto(`${server.base}/jobs`);
  await page.waitForURL(/\/login$/);
  expect(new URL(page.url()).hostname).toBe('127.0.0.1');
  await expect.poll(() => page.getByTestId('public-url-note').textContent()).toContain(`http://localhost:${server.port}`);
  expect(server.output().match(/its public URL is http:\/\/localhost/g)?.length).toBe(1);
});

it('the command palette offers actions by role and finds jobs by title', async () => {
  const viewer = await browserAs('viewer@example.com');
  await (await openPalette(viewer)).fill('diagnostics');
  const viewerRun = viewer.getByRole('dialog').getByRole('option', { name: /Run diagnostics/ });
  expect(await viewerRun.getAttribute('aria-disabled')).toBe('true');
  await viewer.keyboard.press('Escape');

  const admin = await browserAs('admin@example.com');
  const p = admin.getByRole('dialog');
  await (await openPalette(admin)).fill('import a skill');
  await p.getByRole('option', { name: /Import a skill/ }).click();
  await admin.waitForURL(/\/skills/);
  await admin.getByRole('dialog').waitFor();
  await admin.keyboard.press('Escape');

  await (await openPalette(admin)).fill('run diagnostics');
  await p.getByRole('option', { name: /Run diagnostics/ }).click();
  await admin.getByRole('button', { name: 'Open job' }).first().waitFor();
  const [job] = (await admin.evaluate(async () => (await fetch('/api/v1/jobs?kind=diagnostics&limit=1')).json())).items as { id: string; title: string }[];

  // A job is found by a word of its title, and opens from the palette.
  await (await openPalette(admin)).fill(job.title.split(/\s+/)[0]);
  await p.getByRole('group', { name: 'Jobs' }).getByRole('option').first().click();
  await admin.waitForURL(new RegExp(`/jobs/${job.id}$`));
});

it('an unknown address shows a not-found page inside the shell with a way back', async () => {
  const page = await browserAs('operator@example.com');
  const res = await page.goto(`${server.base}/no-such-page`);
  expect(res?.status()).toBe(404);
  await page.getByText('This page does not exist').waitFor();
  await page.getByTestId('current-role').filter({ hasText: 'operator' }).waitFor();
  await page.getByRole('link', { name: 'Back to the overview' }).click();
  await page.waitForURL(/\/overview$/);
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
});

it('the accessibility check finds what it is there to find: a planted low-contrast text and an unlabelled button', async () => {
  const b = await openBrowser();
  browsers.push(b);
  await b.page.setContent(
    '<html lang="en"><head><title>planted</title></head><body><main><p style="color:#777;background:#888">faint</p><button></button></main></body></html>',
  );
  const found = await seriousViolations(b.page, 'planted');
  expect(found.map((f) => f.split(':')[1]?.trim().split(' ')[1])).toEqual(expect.arrayContaining(['color-contrast', 'button-name']));
});
