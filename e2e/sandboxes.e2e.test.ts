// The Sandboxes section in Chromium as the owner, on the real Docker engine with the offline busybox
// image: a Docker config is created in the step editor with its engine left empty (the one the server
// runs with, which the form names), its connection tested, its full check run
// from the card with every probe passing (which enables it); a sandbox is started from the
// instances page, a file written into /workspace/output/reports by an exec, and that file is
// downloaded from the instance page's artifacts browser byte for byte.
import fs from 'node:fs';
import Docker from 'dockerode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dockerUnavailable } from '../test/helpers/docker';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { PASSWORD } from './helpers/session';

const CONFIG_LABEL = 'skilldock.config';
const NAME = `e2e-docker-${Date.now().toString(36)}`;
const CONTENT = `artifact ${Date.now()} ✓\n`;

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let docker: Docker;
let image = '';
let configId = '';

beforeAll(async () => {
  if (dockerUnavailable) return;
  docker = new Docker();
  image = await ensureBusyboxImage(docker);
  await ensureBuilt();
  server = await startServer({
    env: { SKILLDOCK_ADMIN_EMAIL: 'owner@example.com', SKILLDOCK_ADMIN_PASSWORD: PASSWORD, DOCKER_HOST: process.env.DOCKER_HOST ?? '' },
  });
  browser = await openBrowser();
}, 600_000);
afterAll(async () => {
  if (docker && configId)
    for (const c of await docker.listContainers({ all: true, filters: { label: [`${CONFIG_LABEL}=${configId}`] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
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

it.skipIf(!!dockerUnavailable)(
  'creates a Docker config, passes its full check, starts a sandbox and downloads an artifact',
  async () => {
    const { page } = browser;
    await signIn(page, server.base, 'owner@example.com', PASSWORD);

    // The step editor: name and engine, a connection test on the unsaved values, then the image.
    await page.goto(`${server.base}/sandboxes`);
    await page.getByRole('button', { name: 'New config' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New sandbox config' });
    await dialog.getByLabel('Name').fill(NAME);
    // The engine is left empty: it means the one the server runs with (DOCKER_HOST), and the form says so.
    const engine = dialog.getByLabel('Engine');
    expect(await engine.inputValue()).toBe('');
    await expect.poll(() => engine.getAttribute('placeholder')).toBe(process.env.DOCKER_HOST || 'unix:///var/run/docker.sock');
    await dialog.getByText(`Empty = the engine Skilldock runs with: ${process.env.DOCKER_HOST || 'unix:///var/run/docker.sock'}.`).waitFor();
    // Test connection before any image is entered: the engine is tested, the image probe skipped and said why.
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const early = dialog.getByRole('list', { name: 'Connection test', exact: true });
    await early.locator('li[data-status="skipped"]').waitFor();
    expect(await early.locator('li[data-status="pass"]').count()).toBe(3);
    await early.getByText('no image entered yet').waitFor();
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByLabel('Image').fill(image);
    await dialog.getByRole('button', { name: '1. Connect' }).click();
    await dialog.getByRole('button', { name: 'Test connection' }).click();
    const conn = dialog.getByRole('list', { name: 'Connection test', exact: true });
    await conn.waitFor();
    await expect.poll(() => conn.locator('li[data-status="pass"]').count()).toBe(4);
    // Env and network before the first save: drafts that go with Create.
    await dialog.getByRole('button', { name: '3. Env' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('E2E_REGION');
    await dialog.getByLabel('Value').fill('eu-west');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByTestId('draft-env').getByText('E2E_REGION').waitFor();
    await dialog.getByRole('button', { name: '4. Network' }).click();
    const deny = dialog.getByTestId('draft-network').getByLabel('Deny', { exact: true });
    await deny.fill('203.0.113.0/24');
    await deny.press('Enter');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // Once created, the dialog turns into the editor of the saved config, on its Env step.
    const saved = page.getByRole('dialog', { name: `Edit ${NAME}` });
    await saved.getByRole('button', { name: 'Done' }).click();
    await saved.waitFor({ state: 'hidden' });

    const list = await call(page, '/api/v1/sandbox-configs');
    configId = (list.json.items as { id: string; name: string }[]).find((c) => c.name === NAME)!.id;
    expect((await call(page, `/api/v1/sandbox-configs/${configId}/env`)).json.items.map((v: { name: string }) => v.name)).toEqual(['E2E_REGION']);
    expect((await call(page, `/api/v1/sandbox-configs/${configId}/network`)).json.policy.denyOut).toEqual(['203.0.113.0/24']);

    // The full check from the card: live progress, then every probe passes and the config is enabled.
    const card = page.locator(`[data-slot="sandbox-check-report"][data-config="${NAME}"]`);
    await card.getByRole('button', { name: 'Run full check' }).click();
    const report = card.getByRole('list', { name: 'Full check report', exact: true });
    await report.waitFor({ timeout: 120_000 });
    const probes = await report.locator('li').evaluateAll((els) => els.map((e) => [e.getAttribute('data-probe'), e.getAttribute('data-status')]));
    expect(probes.length).toBeGreaterThanOrEqual(9);
    expect(probes.filter(([, s]) => s !== 'pass')).toEqual([]);
    expect((await call(page, `/api/v1/sandbox-configs/${configId}`)).json.enabled).toBe(true);

    // Start a sandbox from the instances page.
    await page.getByRole('link', { name: 'Instances' }).click();
    await page.waitForURL(/\/sandboxes\/instances$/);
    await page.getByLabel('Config to start from').selectOption(configId);
    await page.getByRole('button', { name: 'Start sandbox' }).click();
    const row = page.locator('tr[data-instance]').filter({ hasText: NAME });
    await row.waitFor({ timeout: 60_000 });
    const id = (await row.getAttribute('data-instance'))!;

    // An artifact written by the sandbox (the API exec, as the admin).
    const exec = await call(page, `/api/v1/sandboxes/${encodeURIComponent(id)}/exec`, 'POST', {
      argv: ['sh', '-c', 'mkdir -p /workspace/output/reports && printf "%s" "$1" > /workspace/output/reports/result.txt', 'sh', CONTENT],
    });
    expect(exec.status).toBe(200);
    expect(exec.json.exitCode).toBe(0);

    // The instance page: details, then the artifacts browser down into reports/ and a download.
    await row.getByRole('link').first().click();
    await page.waitForURL(/\/sandboxes\/instances\/.+/);
    await page.getByText(/^CPU [\d.]+% · memory [\d.]+ MiB of 2048 MiB/).waitFor();
    await page.getByRole('table', { name: 'Artifacts' }).getByRole('button', { name: 'reports' }).click();
    const file = page.locator('tr[data-file="result.txt"]');
    await file.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), file.getByRole('link', { name: 'Download result.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('result.txt');
    expect(fs.readFileSync((await download.path())!, 'utf8')).toBe(CONTENT);

    // A recycle collects /workspace/output first: the file is found on the collected artifacts page and downloads the same.
    expect((await call(page, `/api/v1/sandboxes/${encodeURIComponent(id)}/recycle`, 'POST')).status).toBe(200);
    await page.goto(`${server.base}/sandboxes/artifacts`);
    await page.getByLabel('Search by file name').fill('result');
    const kept = page.getByRole('table', { name: 'Collected artifacts' }).locator('tr[data-artifact="reports/result.txt"]');
    await kept.waitFor();
    const [again] = await Promise.all([page.waitForEvent('download'), kept.getByRole('link', { name: 'Download reports/result.txt' }).click()]);
    expect(fs.readFileSync((await again.path())!, 'utf8')).toBe(CONTENT);
  },
  300_000,
);
