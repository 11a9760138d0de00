// The gateways console in Chromium against a real OpenClaw (its CLI from the npm package, on Node 24)
// whose state folder sits inside SKILLDOCK_GATEWAY_ROOTS. As the admin: the empty list names the
// root; the connect dialog validates as you type and connects the local gateway (write mode "file");
// the adoption preview lists the gateway's agents and the adoption links them; the connection test
// reads OpenClaw's version; Sync now is followed live in the log drawer. An allowlist changed in the
// matrix names the gateway the save syncs, the sync it queues is seen succeeding on the gateway's
// page, Check drift then says the agent is in sync, and the config file on disk holds the new list.
// The agent's page names its gateway and mints a token for its `skilldock sync` command. A viewer
// sees the same pages with the write controls disabled. The pages fit a 390 px phone and pass axe
// (WCAG 2.1 A/AA, no serious or critical violation) in the light and the dark theme.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import JSON5 from 'json5';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureOpenClaw, makeOpenClawState, type OpenClaw, skillMd } from '@/test/helpers/openclaw';
import { seriousViolations } from './helpers/axe';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer, tempDir } from './helpers/server';
import { type Client, PASSWORD, seedUsers } from './helpers/session';

const SKILLS = ['alpha', 'bravo'];
const CONFIG = `// Hand-written: Skilldock keeps this comment.
{
  agents: {
    ownership: "explicit",
    entries: {
      "gw-one": { skills: ["alpha"] },
      "gw-two": { skills: [] },
    },
  },
}
`;

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let admin: Client;
let oc: OpenClaw;
let tmp = '';
let roots = '';
let stateDir = '';
let home = '';
let gatewayId = '';

beforeAll(async () => {
  await ensureBuilt();
  oc = await ensureOpenClaw();
  tmp = tempDir('skilldock-e2e-gateways-');
  roots = path.join(tmp, 'roots');
  stateDir = path.join(roots, 'openclaw');
  home = path.join(tmp, 'home');
  fs.mkdirSync(home, { recursive: true });
  makeOpenClawState(stateDir, CONFIG, { 'hand-made': skillMd('hand-made', 'A skill the operator put there by hand.') });
  server = await startServer({ env: { SKILLDOCK_GATEWAY_ROOTS: roots, SKILLDOCK_GATEWAY_POLL_MS: '500' } });
  ({ admin } = await seedUsers(server));
  const ws = path.join(tmp, 'ws', 'skills');
  for (const n of SKILLS) {
    fs.mkdirSync(path.join(ws, n), { recursive: true });
    fs.writeFileSync(path.join(ws, n, 'SKILL.md'), skillMd(n, `The ${n} skill (gateways end-to-end test).`));
  }
  const set = await admin.req('PUT', '/api/v1/settings/skills', { workspaceDir: path.join(tmp, 'ws'), personalDir: path.join(tmp, 'personal') });
  expect(set.status, JSON.stringify(set.json)).toBe(200);
  expect((await admin.req('POST', '/api/v1/skills/refresh')).status).toBe(200);
  browser = await openBrowser();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const config = () => JSON5.parse(fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8'));
const cell = (page: Page, agent: string, skill: string) => page.getByRole('checkbox', { name: `${agent} may use ${skill}`, exact: true });
const syncJobs = async (id: string) =>
  ((await admin.req('GET', '/api/v1/jobs?kind=gateway.sync&limit=50')).json.items as { id: string; state: string; params: { gatewayId: string } }[]).filter(
    (j) => j.params.gatewayId === id,
  );

it('connects a local OpenClaw gateway, adopts its agents, syncs a matrix change into its config and finds it in sync', async () => {
  const { page } = browser;
  await signIn(page, server.base, 'admin@example.com', PASSWORD);

  // The empty list explains both ways to connect and names the configured root.
  await page.goto(`${server.base}/gateways`);
  await page.getByTestId('gateways-empty').waitFor();
  expect(await page.getByTestId('gateway-root').allTextContents()).toEqual([roots]);
  expect(await page.getByTestId('gateways-empty').textContent()).toContain('skilldock sync --url');

  // The connect dialog: the same schema as the server, checked as you type.
  await page.getByTestId('connect-gateway').first().click();
  const dialog = page.getByRole('dialog', { name: 'Connect gateway' });
  await dialog.getByLabel('Name').fill('lab');
  await dialog.getByLabel('State folder').fill('relative/path');
  await dialog.getByText('The state folder is an absolute path').waitFor();
  await dialog.getByLabel('State folder').fill(stateDir);
  await dialog.getByLabel('OpenClaw CLI').fill('openclaw; rm -rf /');
  await dialog.getByText('no spaces or shell syntax', { exact: false }).waitFor();
  await dialog.getByLabel('OpenClaw CLI').fill(oc.cli);
  await dialog.getByLabel('Home folder').fill(home);
  await dialog.getByLabel('Write mode').selectOption('file');
  await dialog.getByRole('button', { name: 'Connect gateway' }).click();
  await page.waitForURL(/\/gateways\/gw_[A-Za-z0-9_-]+\?tab=adopt/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  gatewayId = id;
  expect((await admin.req('GET', `/api/v1/gateways/${id}`)).json.location).toMatchObject({ type: 'local', stateDir, cli: oc.cli, write: 'file' });

  // Adopt: the preview lists the gateway's agents, then both are taken in and linked.
  const adopt = page.getByTestId('adopt-preview');
  await adopt.getByTestId('adopt-row-gw-one').waitFor({ timeout: 60_000 });
  expect(await adopt.getByTestId('adopt-row-gw-one').textContent()).toContain('create');
  expect(await adopt.getByTestId('adopt-row-gw-one').textContent()).toContain('alpha');
  await adopt.getByTestId('adopt-start').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Adopt' }).click();
  await page.getByTestId('gateway-tab-agents').click();
  await page.getByTestId('linked-agent-gw-one').waitFor();
  await page.getByTestId('linked-agent-gw-two').waitFor();
  expect((await admin.req('GET', '/api/v1/agents/gw-one')).json.skills).toEqual(['alpha']);

  // Test connection: OpenClaw's own version.
  await page.getByTestId('gateway-test').click();
  await page.getByTestId('gateway-facts').getByTestId('gateway-status').and(page.locator('[data-status="reachable"]')).waitFor({ timeout: 60_000 });
  expect(await page.getByTestId('gateway-facts').textContent()).toContain(`OpenClaw ${oc.version}`);

  // Sync now: the log drawer follows the job to its end.
  await page.getByTestId('gateway-sync').click();
  const drawer = page.getByTestId('job-drawer');
  await drawer.and(page.locator('[data-state="succeeded"]')).waitFor({ timeout: 120_000 });
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });

  // The matrix: gw-one gains bravo; the what-if names the gateway the save syncs.
  const before = (await syncJobs(id)).length;
  await page.goto(`${server.base}/agents/matrix`);
  await cell(page, 'gw-one', 'bravo').click();
  await page.getByTestId('matrix-review').click();
  const whatIf = page.getByTestId('what-if');
  expect(await whatIf.getByTestId('whatif-gateways').textContent()).toContain('lab');
  await page.getByTestId('whatif-save').click();
  await whatIf.waitFor({ state: 'detached' });

  // The sync the save queued, seen on the gateway's page and followed to its end.
  await page.goto(`${server.base}/gateways/${id}`);
  const jobs = page.getByTestId('gateway-jobs');
  await expect.poll(() => jobs.locator('[data-kind="gateway.sync"]').count(), { timeout: 60_000, interval: 500 }).toBeGreaterThan(before);
  await jobs.locator('[data-kind="gateway.sync"]').first().getByRole('button').click();
  await drawer.and(page.locator('[data-state="succeeded"]')).waitFor({ timeout: 120_000 });
  await page.keyboard.press('Escape');
  await expect.poll(() => [...config().agents.entries['gw-one'].skills].sort(), { timeout: 60_000, interval: 500 }).toEqual(['alpha', 'bravo']);
  expect(fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8')).toContain('// Hand-written: Skilldock keeps this comment.');

  // Check drift: the gateway itself says what gw-one sees, and it matches.
  await page.getByTestId('gateway-check-drift').click();
  await page.getByTestId('linked-agent-gw-one').getByTestId('agent-in-sync').waitFor({ timeout: 120_000 });
  expect(await page.getByTestId('gateway-facts').getByTestId('gateway-drift').textContent()).toBe('in sync');

  // The list row: status, agents, drift and the last sync.
  await page.goto(`${server.base}/gateways`);
  const row = page.getByTestId('gateway-row-lab');
  expect(await row.getByTestId('gateway-status').getAttribute('data-status')).toBe('reachable');
  expect(await row.getByTestId('gateway-agents').textContent()).toBe('2');
  expect(await row.getByTestId('gateway-last-sync').getAttribute('data-ok')).toBe('true');

  // The agent's page: its gateway, its drift there, and a token minted for its sync command.
  await page.goto(`${server.base}/agents/gw-one`);
  const card = page.getByTestId('agent-gateways');
  await card.getByTestId('agent-gateway-lab').getByTestId('agent-in-sync').waitFor();
  const command = card.getByTestId('agent-sync-command');
  expect(await command.textContent()).toBe(`skilldock sync --url ${server.base} --agent gw-one --token <agent token> --dir <folder>`);
  await card.getByTestId('agent-sync-token').click();
  await expect.poll(async () => (await command.textContent())?.includes('<agent token>'), { timeout: 30_000 }).toBe(false);
  const token = /--token (\S+)/.exec((await command.textContent()) ?? '')?.[1] ?? '';
  const skills = await fetch(`${server.base}/api/v1/agents/gw-one/skills`, { headers: { authorization: `Bearer ${token}` } });
  expect(skills.status).toBe(200);
  expect((await fetch(`${server.base}/api/v1/agents/gw-two/skills`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(403);

  // That command, run for real, is listed as a folder client in step; an admin forgets it after a confirm.
  const folder = path.join(tmp, 'folder-client');
  const code = await new Promise<number | null>((resolve) =>
    spawn(
      process.execPath,
      [path.resolve('bin/skilldock.mjs'), 'sync', '--url', server.base, '--agent', 'gw-one', '--token', token, '--dir', folder, '--once'],
      {
        stdio: 'ignore',
      },
    ).on('exit', resolve),
  );
  expect(code).toBe(0);
  expect(fs.existsSync(path.join(folder, 'alpha', 'SKILL.md'))).toBe(true);
  await page.goto(`${server.base}/gateways`);
  const clients = page.getByTestId('folder-clients');
  const clientRow = clients.locator('[data-testid^="folder-client-"]').filter({ hasText: folder });
  await clientRow.waitFor();
  expect(await clientRow.getByTestId('folder-client-status').textContent()).toBe('in step');
  // Filtered to OpenClaw only, the folder clients are hidden; to folder clients only, the gateways are.
  await page.getByLabel('Kind').selectOption('openclaw');
  await clients.waitFor({ state: 'detached' });
  await page.getByLabel('Kind').selectOption('folder');
  await clientRow.waitFor();
  expect(await page.getByTestId('gateway-row-lab').count()).toBe(0);
  await clientRow.getByRole('button', { name: 'Forget' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Forget client' }).click();
  await clients.getByText('No folder client has reported yet').waitFor();
}, 600_000);

const PAGES = () => [
  '/gateways',
  `/gateways/${gatewayId}`,
  `/gateways/${gatewayId}?tab=preview`,
  `/gateways/${gatewayId}?tab=adopt`,
  `/gateways/${gatewayId}?tab=settings`,
];

async function settled(page: Page, url: string) {
  await page.goto(server.base + url);
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => {});
  await page.waitForFunction(() => !document.querySelector('.animate-pulse, [aria-busy="true"]'), null, { timeout: 30_000 }).catch(() => {});
}

it('fits a 390 px phone and passes axe in the light and the dark theme', async () => {
  const { page } = browser;
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    for (const url of [...PAGES(), '/agents/gw-one']) {
      await settled(page, url);
      const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth }));
      expect(w.scroll, url).toBeLessThanOrEqual(w.viewport);
    }
  } finally {
    await page.setViewportSize({ width: 1360, height: 900 });
  }
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const url of [...PAGES(), '/agents/gw-one']) {
      await settled(page, url);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
      found.push(...(await seriousViolations(page, `${scheme} ${url}`)));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(found).toEqual([]);
}, 300_000);

it('shows a viewer the same pages with every write control disabled', async () => {
  const { context } = browser;
  await context.clearCookies();
  const page = await context.newPage();
  try {
    await signIn(page, server.base, 'viewer@example.com', PASSWORD);
    await page.goto(`${server.base}/gateways`);
    await page.getByTestId('gateway-row-lab').getByRole('link', { name: 'lab' }).click();
    await page.getByTestId('gateway-facts').waitFor();
    expect(await page.getByTestId('gateway-sync').isDisabled()).toBe(true);
    expect(await page.getByTestId('gateway-test').isDisabled()).toBe(true);
    expect(await page.getByTestId('gateway-check-drift').isDisabled()).toBe(false);
    await page.getByTestId('gateway-tab-settings').click();
    expect(await page.getByTestId('gateway-delete').isDisabled()).toBe(true);
    expect(await page.getByTestId('gateway-save').isDisabled()).toBe(true);
    await page.goto(`${server.base}/gateways`);
    expect(await page.getByTestId('connect-gateway').isDisabled()).toBe(true);
  } finally {
    await page.close();
  }
}, 120_000);
