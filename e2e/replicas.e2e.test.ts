// Two replicas of the production build on one PostgreSQL database behind a round-robin proxy with no
// stickiness, on the real Docker engine and nft: they boot together on an empty database (one owner,
// none exits); Chromium goes through the proxy for the whole sandbox journey (config, full check,
// start, terminal, network rules), the terminal re-attaching on the other replica; a policy tightened
// through either replica is in the kernel's table; a skill disabled through one is gone from the
// other's gateway answer; an archive uploaded through the proxy is imported and served by both; the admin closes a terminal held elsewhere; and SIGKILL of the replica that
// holds the engine's enforcement hands it to the other with the rules in the kernel throughout.
import fs from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readTable } from '../lib/network/docker/nft';
import { setElements } from '../lib/network/docker/nft-json';
import { dockerUnavailable } from '../test/helpers/docker';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { skillMd } from '../test/helpers/skills-api';
import { zipSkill } from '../test/helpers/skills-archives';
import { openBrowser, signIn } from './helpers/browser';
import { type Cluster, OWNER_EMAIL, running, startCluster } from './helpers/cluster';
import { ensureBuilt, type RunningServer, tempDir } from './helpers/server';
import { Client, jobEnd, login, PASSWORD } from './helpers/session';

const CONFIG_LABEL = 'skilldock.config';
const NAME = `e2e-repl-${Date.now().toString(36)}`;
const skip = dockerUnavailable ?? (process.getuid?.() !== 0 ? 'nft needs root' : undefined);

let cluster: Cluster;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let docker: Docker;
let owner: Client;
let tmp = '';
let configId = '';
let instanceId = '';

beforeAll(async () => {
  if (skip) return;
  docker = new Docker();
  await ensureBusyboxImage(docker);
  await ensureBuilt();
  cluster = await startCluster({ replicas: 2 });
  owner = await login(cluster.base, OWNER_EMAIL);
  browser = await openBrowser();
  tmp = tempDir('skilldock-e2e-replicas-');
}, 600_000);

afterAll(async () => {
  if (docker && configId)
    for (const c of await docker.listContainers({ all: true, filters: { label: [`${CONFIG_LABEL}=${configId}`] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
  await browser?.close();
  await cluster?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** The same signed-in user, talking to one replica directly. */
const on = (r: RunningServer) => new Client(r.base, owner.auth);
const live = () => cluster.replicas.filter(running);
const instanceOf = async (r: RunningServer) => (await on(r).req('GET', '/api/v1/instance')).json;

/** Every address the table's deny sets hold, read back from the kernel. */
async function deniedInKernel(): Promise<string[]> {
  const json = await readTable(cluster.table);
  const names = json.nftables.flatMap((o) => {
    const set = (o as { set?: { name: string } }).set;
    return set?.name.startsWith('d4_') ? [set.name] : [];
  });
  return names.flatMap((n) => setElements(json, n));
}

async function setDeny(via: Client, denyOut: string[]) {
  const current = await via.req('GET', `/api/v1/sandbox-configs/${configId}/network`);
  const r = await via.req('PUT', `/api/v1/sandbox-configs/${configId}/network`, { policy: { ...current.json.policy, denyOut } });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  expect(r.json.sandboxes.map((s: { status: string }) => s.status)).toEqual(['updated']);
}

const status = (page: Page, state: string) => page.locator(`[data-testid="terminal-status"][data-state="${state}"]`).waitFor({ timeout: 30_000 });
const terminalText = (page: Page) => page.evaluate(() => window.__skilldockTerminal?.text() ?? '');
const waitText = (page: Page, re: RegExp) =>
  page.waitForFunction((src) => new RegExp(src).test(window.__skilldockTerminal?.text() ?? ''), re.source, { timeout: 30_000 });
async function typeLine(page: Page, line: string) {
  await page.locator('[data-testid="terminal"]').click();
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
}

it.skipIf(!!skip)('two replicas booted together on an empty database: both serve, one owner, one installation', async () => {
  expect(cluster.replicas.filter(running)).toHaveLength(2);
  const users = await owner.req('GET', '/api/v1/users');
  expect(users.json.items.map((u: { email: string; role: string }) => [u.email, u.role])).toEqual([[OWNER_EMAIL, 'owner']]);
  const [a, b] = await Promise.all(cluster.replicas.map(instanceOf));
  expect(a.replica.id).not.toBe(b.replica.id);
  expect(a.replica.installationId).toBe(b.replica.installationId);
  // Exactly one of them holds the engine's enforcement, and the other names it.
  const held = [a, b].filter((i) => i.networkEnforcement?.startsWith('Held by this replica'));
  expect(held).toHaveLength(1);
  const other = [a, b].find((i) => i !== held[0])!;
  expect(other.networkEnforcement).toContain(`Held by replica ${held[0].replica.id}`);
});

it.skipIf(!!skip)(
  'the sandbox journey in Chromium through the proxy, the terminal re-attaching on the other replica',
  async () => {
    const { page } = browser;
    await signIn(page, cluster.base, OWNER_EMAIL, PASSWORD);
    const image = await ensureBusyboxImage(docker);
    await page.goto(`${cluster.base}/sandboxes`);
    await page.getByRole('button', { name: 'New config' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New sandbox config' });
    await dialog.getByLabel('Name').fill(NAME);
    await dialog.getByLabel('Engine').fill(process.env.DOCKER_HOST ?? '');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByLabel('Image').fill(image);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const saved = page.getByRole('dialog', { name: `Edit ${NAME}` });
    await saved.getByRole('button', { name: 'Done' }).click();
    await saved.waitFor({ state: 'hidden' });
    const configs = await owner.req('GET', '/api/v1/sandbox-configs');
    configId = (configs.json.items as { id: string; name: string }[]).find((c) => c.name === NAME)!.id;

    // The full check runs as a job on whichever replica's worker takes it; its network probes go to
    // the enforcement holder when that is the other one.
    const card = page.locator(`[data-slot="sandbox-check-report"][data-config="${NAME}"]`);
    await card.getByRole('button', { name: 'Run full check' }).click();
    const report = card.getByRole('list', { name: 'Full check report', exact: true });
    await report.waitFor({ timeout: 120_000 });
    const probes = await report.locator('li').evaluateAll((els) => els.map((e) => [e.getAttribute('data-probe'), e.getAttribute('data-status')]));
    expect(probes.filter(([, s]) => s !== 'pass')).toEqual([]);

    await page.getByRole('link', { name: 'Instances' }).click();
    await page.waitForURL(/\/sandboxes\/instances$/);
    await page.getByLabel('Config to start from').selectOption(configId);
    await page.getByRole('button', { name: 'Start sandbox' }).click();
    const row = page.locator('tr[data-instance]').filter({ hasText: NAME });
    await row.waitFor({ timeout: 60_000 });
    instanceId = (await row.getAttribute('data-instance'))!;

    // The terminal: opened through one replica, re-attached after a reload through the other.
    await page.goto(`${cluster.base}/sandboxes/instances/${encodeURIComponent(instanceId)}`);
    await page.getByRole('button', { name: 'Open terminal' }).click();
    await status(page, 'connected');
    await typeLine(page, 'echo rep""lica-$((40+2))');
    await waitText(page, /\nreplica-42(\n|$)/);
    const sessionId = await page.evaluate(() => window.__skilldockTerminal?.sessionId);
    await page.reload();
    await status(page, 'connected');
    expect(await page.evaluate(() => window.__skilldockTerminal?.sessionId)).toBe(sessionId);
    await typeLine(page, 'echo after-reload');
    await waitText(page, /\nafter-reload(\n|$)/);
    expect((await terminalText(page)).split('\n').filter((l) => l.trim() === 'replica-42')).toHaveLength(1);
    const sockets = cluster.proxy.landings.filter((l) => l.kind === 'upgrade' && l.path.startsWith('/ws/terminal')).map((l) => l.backend);
    expect(sockets).toHaveLength(2);
    expect(new Set(sockets).size).toBe(2);

    // The network rules, saved in the dialog, reach the running sandbox and the kernel's table.
    await page.goto(`${cluster.base}/sandboxes`);
    await page.getByRole('button', { name: `Network rules of ${NAME}` }).click();
    const net = page.getByRole('dialog', { name: `Network rules of ${NAME}` });
    await net.getByLabel('Deny', { exact: true }).fill('203.0.113.0/24');
    await net.getByLabel('Deny', { exact: true }).press('Enter');
    await net.getByRole('button', { name: 'Save rules' }).click();
    const result = net.locator('[data-slot="network-save-result"]');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.locator('li[data-sandbox]').evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['updated']);
    expect(await deniedInKernel()).toContain('203.0.113.0/24');
  },
  400_000,
);

it.skipIf(!!skip)('a policy tightened through either replica is in the kernel at once', async () => {
  const [a, b] = cluster.replicas;
  await setDeny(on(a!), ['198.51.100.0/24']);
  expect(await deniedInKernel()).toEqual(expect.arrayContaining(['198.51.100.0/24']));
  expect(await deniedInKernel()).not.toContain('203.0.113.0/24');
  await setDeny(on(b!), ['192.0.2.0/24']);
  const denied = await deniedInKernel();
  expect(denied).toContain('192.0.2.0/24');
  expect(denied).not.toContain('198.51.100.0/24');
});

it.skipIf(!!skip)('the admin closes, through one replica, a terminal held by the other', async () => {
  const { page } = browser;
  await page.goto(`${cluster.base}/sandboxes/instances/${encodeURIComponent(instanceId)}`);
  await status(page, 'connected');
  const sessionId = await page.evaluate(() => window.__skilldockTerminal?.sessionId);
  // Both replicas list it: the registry is the database's.
  for (const r of cluster.replicas)
    expect((await on(r).req('GET', '/api/v1/terminal-sessions')).json.items.map((s: { id: string }) => s.id)).toContain(sessionId);
  const holder = cluster.proxy.landings.filter((l) => l.kind === 'upgrade' && l.path.startsWith('/ws/terminal'))[0]!.backend;
  const elsewhere = cluster.replicas.find((r) => r.base !== holder)!;
  const closed = await on(elsewhere).req('DELETE', `/api/v1/terminal-sessions/${sessionId}`);
  expect(closed.status, JSON.stringify(closed.json)).toBe(200);
  expect(closed.json).toEqual({ closed: true });
  await status(page, 'closed');
  for (const r of cluster.replicas)
    expect((await on(r).req('GET', '/api/v1/terminal-sessions')).json.items.map((s: { id: string }) => s.id)).not.toContain(sessionId);
});

it.skipIf(!!skip)("a skill disabled through one replica is gone from the other's gateway answer", async () => {
  const root = path.join(tmp, 'ws', 'skills');
  for (const n of ['alpha', 'beta']) {
    fs.mkdirSync(path.join(root, n), { recursive: true });
    fs.writeFileSync(path.join(root, n, 'SKILL.md'), `---\nname: ${n}\ndescription: "The ${n} skill (replicas test)."\n---\n\n# ${n}\n`);
  }
  const [a, b] = cluster.replicas.map(on);
  expect((await a!.req('PUT', '/api/v1/settings/skills', { workspaceDir: path.join(tmp, 'ws'), personalDir: path.join(tmp, 'personal') })).status).toBe(200);
  expect((await a!.req('POST', '/api/v1/agents', { id: 'relay-bot', name: 'Relay bot' })).status).toBe(201);
  const names = async (c: Client) => {
    const r = await c.req('GET', '/api/v1/agents/relay-bot/skills');
    expect(r.status).toBe(200);
    return { names: (r.json.skills as { name: string }[]).map((s) => s.name).sort(), etag: r.res.headers.get('etag') };
  };
  // The settings write reached the other replica's catalog.
  for (let i = 0; i < 100 && !(await names(b!)).names.includes('alpha'); i++) await new Promise((r) => setTimeout(r, 100));
  expect((await names(b!)).names).toEqual(['alpha', 'beta']);

  expect((await a!.req('PUT', '/api/v1/skills/entry', { skillKey: 'alpha', enabled: false })).status).toBe(200);
  // The bound is the catalog's longest life on a replica that missed the notice (10 s).
  for (let i = 0; i < 100 && (await names(b!)).names.includes('alpha'); i++) await new Promise((r) => setTimeout(r, 100));
  const [fromA, fromB] = await Promise.all([names(a!), names(b!)]);
  expect(fromB.names).toEqual(['beta']);
  // One version on both: a gateway polling either replica sees the same ETag.
  expect(fromA).toEqual(fromB);
});

it.skipIf(!!skip)('an archive uploaded through the proxy is imported by either worker and served by both replicas', async () => {
  const slug = 'replica-import';
  const archive = zipSkill(slug, { 'SKILL.md': skillMd(slug, 'Imported behind the round-robin proxy.'), 'notes.md': 'n'.repeat(300_000) });
  const up = await fetch(`${cluster.base}/api/v1/skills/uploads`, {
    method: 'POST',
    headers: owner.headers({ 'content-type': 'application/octet-stream', 'x-filename': 'skill.zip' }),
    body: new Uint8Array(archive),
  });
  expect(up.status).toBe(201);
  const { uploadId } = (await up.json()) as { uploadId: string };
  const started = await owner.req('POST', '/api/v1/skills/import', { source: { kind: 'upload', uploadId } });
  expect(started.status, JSON.stringify(started.json)).toBe(202);
  const job = await jobEnd(owner, started.json.id);
  expect(job.state, JSON.stringify(job.error)).toBe('succeeded');
  // Whichever replica's worker ran it, both serve the skill and its files.
  for (const c of cluster.replicas.map(on)) {
    let names: string[] = [];
    for (let i = 0; i < 100 && !names.includes(slug); i++) {
      names = ((await c.req('GET', '/api/v1/agents/relay-bot/skills')).json.skills as { name: string }[]).map((s) => s.name);
      if (!names.includes(slug)) await new Promise((r) => setTimeout(r, 100));
    }
    expect(names).toContain(slug);
    const skill = ((await c.req('GET', '/api/v1/skills')).json.skills as { id: string; name: string }[]).find((s) => s.name === slug)!;
    const file = await c.req('GET', `/api/v1/skills/${encodeURIComponent(skill.id)}/file?path=notes.md`);
    expect(file.status).toBe(200);
    expect(JSON.stringify(file.json)).toContain('n'.repeat(1000));
  }
});

it.skipIf(!!skip)('SIGKILL of the enforcement holder: the other replica takes over, the rules in the kernel throughout', async () => {
  const infos = await Promise.all(cluster.replicas.map(instanceOf));
  const holderIndex = infos.findIndex((i) => i.networkEnforcement?.startsWith('Held by this replica'));
  expect(holderIndex).toBeGreaterThanOrEqual(0);
  const holder = cluster.replicas[holderIndex]!;
  const survivor = cluster.replicas.find((r) => r !== holder)!;
  expect(await deniedInKernel()).toContain('192.0.2.0/24');

  await holder.kill9();
  cluster.drop(holder);
  const samples: boolean[] = [];
  let took = false;
  // The lease lives 15 s; the survivor takes it within one more renewal period.
  for (let i = 0; i < 300 && !took; i++) {
    samples.push((await deniedInKernel()).includes('192.0.2.0/24'));
    took = ((await instanceOf(survivor)).networkEnforcement ?? '').startsWith('Held by this replica');
    if (!took) await new Promise((r) => setTimeout(r, 100));
  }
  expect(took).toBe(true);
  expect(samples.length).toBeGreaterThan(1);
  expect(samples.every(Boolean)).toBe(true);
  expect(await deniedInKernel()).toContain('192.0.2.0/24');
  expect(live()).toEqual([survivor]);

  // The new holder enforces: a change through the proxy (only the survivor is behind it) reaches the table.
  await setDeny(owner, ['192.0.2.128/25']);
  const denied = await deniedInKernel();
  expect(denied).toContain('192.0.2.128/25');
  expect(denied).not.toContain('192.0.2.0/24');
});
