// The browser terminal in Chromium against the production build, on the real Docker engine with the
// offline busybox image: an admin opens a terminal on a running sandbox's page, types `echo`, sees
// xterm render it; a resized window shows in `stty size`; a dropped socket re-attaches to the same
// shell with the earlier output there once; a reload re-attaches too; a terminal left alone is closed
// by the idle disconnect with its reason; a viewer cannot open one; after close no process of the
// session remains in the container. Another admin opening the same sandbox sees that it is not
// theirs ("shared with" its owner), attaches only on purpose, and their personal variables stay out.
import Docker from 'dockerode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dockerUnavailable } from '../test/helpers/docker';
import { markedProcessesArgv } from '../test/helpers/marked-processes';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { type Client, PASSWORD, seedUsers } from './helpers/session';

const CONFIG_LABEL = 'skilldock.config';
const NAME = `e2e-term-${Date.now().toString(36)}`;

let server: RunningServer;
let adminBrowser: Awaited<ReturnType<typeof openBrowser>>;
let viewerBrowser: Awaited<ReturnType<typeof openBrowser>>;
let ownerBrowser: Awaited<ReturnType<typeof openBrowser>>;
let docker: Docker;
let owner: Client;
let admin: Client;
let configId = '';
let instanceId = '';
let containerId = '';

beforeAll(async () => {
  if (dockerUnavailable) return;
  docker = new Docker();
  const image = await ensureBusyboxImage(docker);
  await ensureBuilt();
  server = await startServer({ env: { DOCKER_HOST: process.env.DOCKER_HOST ?? '' } });
  ({ owner, admin } = await seedUsers(server));
  // The shortest idle disconnect a config allows, so the idle case fits in this run.
  const created = await owner.req('POST', '/api/v1/sandbox-configs', {
    name: NAME,
    backend: 'docker',
    config: { image, host: process.env.DOCKER_HOST ?? '', networkMode: 'none', terminalIdleDisconnectSec: 60 },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  configId = created.json.id;
  const check = await owner.req('POST', `/api/v1/sandbox-configs/${configId}/check`);
  expect(check.status).toBe(202);
  let job = check.json;
  for (let i = 0; i < 900 && !['succeeded', 'failed', 'canceled'].includes(job.state); i++) {
    await new Promise((r) => setTimeout(r, 200));
    job = (await owner.req('GET', `/api/v1/jobs/${check.json.id}`)).json;
  }
  expect(job.state, JSON.stringify(job.result)).toBe('succeeded');
  // The admin's own sandbox: their terminal there is not shared with anyone.
  const started = await admin.req('POST', '/api/v1/sandboxes', { configId });
  expect(started.status, JSON.stringify(started.json)).toBe(201);
  instanceId = started.json.id;
  containerId = started.json.sandboxId;
  adminBrowser = await openBrowser();
  viewerBrowser = await openBrowser();
  ownerBrowser = await openBrowser();
}, 600_000);

afterAll(async () => {
  if (docker && configId)
    for (const c of await docker.listContainers({ all: true, filters: { label: [`${CONFIG_LABEL}=${configId}`] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
  await adminBrowser?.close();
  await viewerBrowser?.close();
  await ownerBrowser?.close();
  await server?.stop();
});

type Hook = NonNullable<Window['__skilldockTerminal']>;
/** One field of the page's terminal test hook. */
const hook = <K extends 'sessionId' | 'offset' | 'cols' | 'rows'>(page: Page, key: K) =>
  page.waitForFunction(() => !!window.__skilldockTerminal).then(() => page.evaluate((k) => window.__skilldockTerminal?.[k], key) as Promise<Hook[K]>);
const text = (page: Page) => page.evaluate(() => window.__skilldockTerminal?.text() ?? '');
const status = (page: Page, state: string, timeout = 30_000) => page.locator(`[data-testid="terminal-status"][data-state="${state}"]`).waitFor({ timeout });
/** Lines of the buffer that are exactly `line` (a command's output, not its echo). */
const linesEqual = (s: string, line: string) => s.split('\n').filter((l) => l.trim() === line).length;
const waitText = (page: Page, re: RegExp) =>
  page.waitForFunction((src) => new RegExp(src).test(window.__skilldockTerminal?.text() ?? ''), re.source, { timeout: 30_000 });

async function typeLine(page: Page, line: string) {
  await page.locator('[data-testid="terminal"]').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

/** Processes in the container that carry a terminal session marker. */
async function markedProcesses(): Promise<string> {
  const exec = await docker.getContainer(containerId).exec({
    Cmd: markedProcessesArgv(),
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((r) => stream.on('end', r));
  // Multiplexed: drop the 8-byte frame headers.
  let out = '';
  const all = Buffer.concat(chunks);
  for (let i = 0; i + 8 <= all.length; ) {
    const n = all.readUInt32BE(i + 4);
    out += all.subarray(i + 8, i + 8 + n).toString();
    i += 8 + n;
  }
  return out.trim();
}

it.skipIf(!!dockerUnavailable)(
  'opens a terminal, echoes, resizes, re-attaches after a drop and a reload, and idles out',
  async () => {
    const { page, context } = adminBrowser;
    await signIn(page, server.base, 'admin@example.com', PASSWORD);
    const url = `${server.base}/sandboxes/instances/${encodeURIComponent(instanceId)}`;

    // A second terminal in another tab is left alone from the start: it must idle out by the end.
    const idlePage = await context.newPage();
    await idlePage.goto(url);
    await idlePage.getByRole('button', { name: 'Open terminal' }).click();
    await status(idlePage, 'connected');

    await page.goto(url);
    await page.getByRole('button', { name: 'Open terminal' }).click();
    await status(page, 'connected');
    await typeLine(page, 'echo hel""lo-$((40+2))');
    await waitText(page, /\nhello-42(\n|$)/);
    const sessionId = await hook(page, 'sessionId');
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    // The window changes size: xterm refits and the shell sees the new geometry.
    await page.setViewportSize({ width: 1400, height: 1000 });
    await page.waitForFunction((c) => (window.__skilldockTerminal?.cols ?? c) !== c, await hook(page, 'cols'));
    const cols = await hook(page, 'cols');
    const rows = await hook(page, 'rows');
    await typeLine(page, 'stty size');
    await waitText(page, new RegExp(`\\n${rows} ${cols}(\\n|$)`));

    // A network drop: the client re-attaches to the same shell, the earlier output is there once.
    await page.evaluate(() => window.__skilldockTerminal?.dropSocket());
    await status(page, 'reconnecting');
    await status(page, 'connected');
    expect(await hook(page, 'sessionId')).toBe(sessionId);
    await typeLine(page, 'echo after-drop');
    await waitText(page, /\nafter-drop(\n|$)/);
    expect(linesEqual(await text(page), 'hello-42')).toBe(1);

    // A reload: the same session, its recent output replayed into the new terminal exactly once.
    await page.reload();
    await status(page, 'connected');
    expect(await hook(page, 'sessionId')).toBe(sessionId);
    await waitText(page, /\nafter-drop(\n|$)/);
    const replayed = await text(page);
    expect(linesEqual(replayed, 'hello-42')).toBe(1);
    expect(linesEqual(replayed, 'after-drop')).toBe(1);
    await typeLine(page, 'echo $SKILLDOCK_TERMINAL_ID');
    await waitText(page, new RegExp(`\\n${sessionId}(\\n|$)`));

    // The untouched tab: closed by the idle disconnect, and the status says so.
    await status(idlePage, 'closed', 120_000);
    await expect(idlePage.getByTestId('terminal-status').textContent()).resolves.toMatch(/idle/i);

    // Exiting the shell ends the session; nothing of either session remains in the container.
    await typeLine(page, 'sleep 1000 &');
    await typeLine(page, 'exit 3');
    await status(page, 'exited');
    await expect(page.getByTestId('terminal-status').textContent()).resolves.toContain('3');
    for (let i = 0; i < 100 && (await markedProcesses()) !== ''; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await markedProcesses()).toBe('');
  },
  300_000,
);

it.skipIf(!!dockerUnavailable)('refuses a viewer', async () => {
  const { page } = viewerBrowser;
  await signIn(page, server.base, 'viewer@example.com', PASSWORD);
  await page.goto(`${server.base}/sandboxes/instances/${encodeURIComponent(instanceId)}`);
  await expect(page.getByRole('button', { name: 'Open terminal' }).isDisabled()).resolves.toBe(true);
  const r = await page.evaluate(async (id) => {
    const res = await fetch(`/api/v1/sandboxes/${encodeURIComponent(id)}/terminal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    return res.status;
  }, instanceId);
  expect(r).toBe(403);
});

it.skipIf(!!dockerUnavailable)("warns a person opening someone else's sandbox, attaches only on purpose, and keeps their variables out", async () => {
  const put = await owner.req('PUT', '/api/v1/me/env', { level: 'personal_sandbox', configId, name: 'OWNER_SECRET', value: 'owner-only-value' });
  expect(put.status, JSON.stringify(put.json)).toBe(200);
  // Without choosing to share, the API refuses.
  const refused = await owner.req('POST', `/api/v1/sandboxes/${encodeURIComponent(instanceId)}/terminal`, {});
  expect(refused.status).toBe(409);
  expect(refused.json.error.details.reason).toBe('shared_sandbox');

  const { page } = ownerBrowser;
  await signIn(page, server.base, 'owner@example.com', PASSWORD);
  await page.goto(`${server.base}/sandboxes/instances/${encodeURIComponent(instanceId)}`);
  const warning = page.locator('[data-slot="shared-warning"]').first();
  await warning.waitFor();
  await expect(warning.textContent()).resolves.toMatch(/Shared with user .*not yours.*personal variables are not given/s);
  await page.getByRole('button', { name: /^Attach to user .*'s sandbox$/ }).click();
  await status(page, 'connected');
  await typeLine(page, 'echo "[v=$OWNER_SECRET]"');
  await waitText(page, /\n\[v=\](\n|$)/);
  expect(await text(page)).not.toContain('owner-only-value');
});
