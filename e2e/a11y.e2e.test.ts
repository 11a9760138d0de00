// An accessibility pass with axe-core over every top-level page, in the light and the dark theme:
// no serious or critical violation of WCAG 2.1 A/AA.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { PASSWORD, seedUsers } from './helpers/session';

const PAGES = [
  '/overview',
  '/runtime',
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
  '/no-such-page',
];

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
});
afterAll(async () => {
  await close?.();
  await server?.stop();
});

async function violations(path: string) {
  await page.goto(server.base + path);
  await page.locator('h1, [data-slot="card-title"], h2').first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
  await page.waitForFunction(() => !document.querySelector('.animate-pulse, [aria-busy="true"]'), null, { timeout: 30_000 }).catch(() => {});
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // The API page embeds Scalar's reference renderer: its markup is not ours to change (its colours are
    // themed in components/api-docs/scalar-overrides.css); the page around it is checked.
    .exclude('.scalar-app')
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} on ${path}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

describe.each(['light', 'dark'] as const)('%s theme', (scheme) => {
  it('the login page has no serious or critical violations', async () => {
    await page.context().clearCookies();
    await page.emulateMedia({ colorScheme: scheme });
    expect(await violations('/login')).toEqual([]);
  });

  it('every console page has no serious or critical violations', async () => {
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, server.base, 'owner@example.com', PASSWORD);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
    const found: string[] = [];
    for (const path of PAGES) found.push(...(await violations(path)));
    expect(found).toEqual([]);
  });
});
