// Skill installs in Chromium on the real Docker engine with the offline busybox image. As the admin:
// a stored skill is installed into a Docker config from its page; the row goes installing → ready
// with its stage shown, the log drawer streams the install (its `sh -n` syntax check), and closing
// the drawer mid-install leaves the install running to its end. The config's panel then lists the
// skill, its image (generation 1, healthy), the rollout setting, and a sandbox started before the
// install as stale, recycled with one confirmed click. The skill page says the skill is ready in
// the sandbox image. A viewer sees the same page with "Install into" disabled.
import Docker from 'dockerode';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dockerUnavailable } from '../test/helpers/docker';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { zipSkill } from '../test/helpers/skills-archives';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { type Client, jobEnd, PASSWORD, seedUsers } from './helpers/session';

const CONFIG_LABEL = 'skilldock.config';
const RUN = Date.now().toString(36);
const CONFIG = `e2e-inst-${RUN}`;
const SLUG = 'e2e-greeter';
const SKILL_MD = `---\nname: ${SLUG}\ndescription: Greets (end-to-end install test skill).\nmetadata: { "openclaw": { "requires": { "bins": ["sh"] } } }\n---\n\n# Greeter\n\nRun \`sh run.sh <name>\`.\n`;

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let docker: Docker;
let admin: Client;
let configId = '';
let sandboxId = '';
let skillId = '';

beforeAll(async () => {
  if (dockerUnavailable) return;
  docker = new Docker();
  const image = await ensureBusyboxImage(docker);
  await ensureBuilt();
  server = await startServer({ env: { DOCKER_HOST: process.env.DOCKER_HOST ?? '' } });
  ({ admin } = await seedUsers(server));
  const created = await admin.req('POST', '/api/v1/sandbox-configs', {
    name: CONFIG,
    backend: 'docker',
    config: { image, host: process.env.DOCKER_HOST ?? '' },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  configId = created.json.id;
  const check = await admin.req('POST', `/api/v1/sandbox-configs/${configId}/check`);
  expect((await jobEnd(admin, check.json.id)).state).toBe('succeeded');
  // Started from the base image: stale once the install makes generation 1 active.
  const started = await admin.req('POST', '/api/v1/sandboxes', { configId });
  expect(started.status, JSON.stringify(started.json)).toBe(201);
  sandboxId = started.json.sandboxId;

  // The skill, uploaded and imported as the import dialog does it.
  const zip = zipSkill(SLUG, { 'SKILL.md': SKILL_MD, 'run.sh': '#!/bin/sh\necho "hello $1"\n' });
  const up = await fetch(`${server.base}/api/v1/skills/uploads`, {
    method: 'POST',
    headers: admin.headers({ 'x-filename': `${SLUG}.zip` }),
    body: new Uint8Array(zip),
  });
  expect(up.status).toBe(201);
  const imported = await admin.req('POST', '/api/v1/skills/import', {
    source: { kind: 'upload', uploadId: ((await up.json()) as { uploadId: string }).uploadId },
  });
  expect(imported.status, JSON.stringify(imported.json)).toBe(202);
  expect((await jobEnd(admin, imported.json.id)).state).toBe('succeeded');
  for (let i = 0; i < 100 && !skillId; i++) {
    const list = await admin.req('GET', '/api/v1/skills?source=managed');
    skillId = (list.json.skills as { id: string; name: string }[]).find((s) => s.name === SLUG)?.id ?? '';
    if (!skillId) await new Promise((r) => setTimeout(r, 200));
  }
  expect(skillId).not.toBe('');
  browser = await openBrowser();
}, 600_000);

afterAll(async () => {
  if (docker && configId) {
    for (const c of await docker.listContainers({ all: true, filters: { label: [`${CONFIG_LABEL}=${configId}`] } }))
      await docker.getContainer(c.Id).remove({ force: true, v: true });
    for (const i of await docker.listImages({ filters: { reference: [`skilldock-snapshot/*`] } }))
      if ((i.RepoTags ?? []).some((t) => t.includes(configId.toLowerCase())))
        await docker
          .getImage(i.Id)
          .remove({ force: true })
          .catch(() => undefined);
  }
  await browser?.close();
  await server?.stop();
});

/** Every value the stage text of the page's install rows shows, recorded as it changes. */
const recordStages = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __stages: string[] };
    w.__stages = [];
    const note = () => {
      for (const el of document.querySelectorAll('[data-testid="install-stage"]')) {
        const t = el.textContent ?? '';
        if (w.__stages.at(-1) !== t) w.__stages.push(t);
      }
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });

it.skipIf(!!dockerUnavailable)(
  'installs a skill from its page with a live log, then shows it, the image and a stale sandbox on the config; a viewer cannot install',
  async () => {
    const { page, context } = browser;
    await signIn(page, server.base, 'admin@example.com', PASSWORD);

    // The skill page before the install: ready in the sandbox image too (sh is in busybox).
    await page.goto(`${server.base}/skills/${encodeURIComponent(skillId)}`);
    const gating = page.locator(`[data-testid="sandbox-gating-${CONFIG}"]`);
    await gating.waitFor({ timeout: 60_000 });
    expect(await gating.getAttribute('data-state')).toBe('ready');
    expect(await gating.getByTestId('sandbox-gating-summary').textContent()).toBe(`ready on host; ready in sandbox ${CONFIG}`);

    // Install into the config.
    const card = page.getByTestId('installs-card');
    await recordStages(page);
    await card.getByTestId('install-into-button').click();
    const dialog = page.getByRole('dialog', { name: `Install ${SLUG} into…` });
    await dialog.getByLabel(CONFIG).check();
    // The dialog names the running sandbox the install makes stale, and what next_turn does to its files.
    const effects = dialog.locator('[data-testid="install-effects"][data-stale="1"]');
    await effects.waitFor();
    expect(await effects.textContent()).toContain(sandboxId.slice(0, 12));
    expect(await effects.textContent()).toContain('Rollout next_turn');
    await dialog.getByRole('button', { name: 'Install into 1 config' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = card.getByTestId(`install-row-${CONFIG}`);
    await card.locator(`[data-testid="install-row-${CONFIG}"][data-state="installing"]`).waitFor();
    expect(await row.getByTestId('install-state').textContent()).toBe('installing');

    // The log drawer follows the job; closing it does not stop the install.
    await row.getByRole('button', { name: `View the log of ${SLUG} in ${CONFIG}` }).click();
    const log = page.getByTestId('install-log');
    await log.getByText(`Installing ${SLUG}`, { exact: false }).first().waitFor({ timeout: 60_000 });
    await page
      .getByRole('dialog', { name: `Install of ${SLUG} in ${CONFIG}` })
      .getByRole('button', { name: 'Close', exact: true })
      .click();
    await log.waitFor({ state: 'detached' });
    await card.locator(`[data-testid="install-row-${CONFIG}"][data-state="ready"]`).waitFor({ timeout: 120_000 });
    expect(await row.getByTestId('install-state').textContent()).toBe('ready');
    expect(await row.getByTestId('install-stage').count()).toBe(0);
    const stages = await page.evaluate(() => (window as unknown as { __stages: string[] }).__stages);
    expect(stages.length).toBeGreaterThan(0);
    expect(stages.every((s) => /^\d+% · /.test(s))).toBe(true);
    expect(await row.textContent()).toMatch(/(?<!v)v1 · image gen 1 · /);

    // The ended job's log, reopened: the verify step's syntax check ran in the sandbox image.
    await row.getByRole('button', { name: `View the log of ${SLUG} in ${CONFIG}` }).click();
    await page.locator('[data-testid="install-log"][data-state="succeeded"]').waitFor({ timeout: 30_000 });
    await log.getByText(`$ sh -n /opt/skilldock/skills/${SLUG}/run.sh`, { exact: true }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await log.waitFor({ state: 'detached' });

    // The config's panel: the installed skill, the image, the rollout and the stale sandbox.
    await page.goto(`${server.base}/sandboxes`);
    await page.getByRole('button', { name: `Skills and image of ${CONFIG}` }).click();
    const panel = page.getByRole('dialog', { name: `${CONFIG}: skills and image` });
    await panel.locator(`[data-testid="config-install-row-${SLUG}"][data-state="ready"]`).waitFor();
    await panel.locator('[data-testid="config-image"][data-health="ok"]').waitFor();
    expect(await panel.getByTestId(`config-install-row-${SLUG}`).locator('td').nth(1).textContent()).toBe('v1');
    await panel.locator('[data-generation="1"][data-state="active"]').waitFor();
    expect(await panel.getByTestId('image-health').textContent()).toBe('healthy');
    expect(await panel.getByTestId('rollout-setting').getAttribute('data-rollout')).toBe('next_turn');
    const stale = panel.getByTestId(`stale-instance-${sandboxId}`);
    await stale.waitFor();
    expect(await stale.textContent()).toContain('started from the base image; generation 1 is active');
    await stale.getByRole('button', { name: `Recycle sandbox ${sandboxId.slice(0, 12)}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Recycle sandbox ${sandboxId.slice(0, 12)}?` });
    await confirm.getByRole('button', { name: 'Recycle' }).click();
    await panel.locator('[data-testid="stale-instances"][data-count="0"]').waitFor({ timeout: 60_000 });
    const after = await admin.req('GET', `/api/v1/sandboxes?configId=${configId}`);
    expect(
      after.json.items.map((i: { sandboxId: string; stale: boolean; imageGeneration: number }) => [i.sandboxId === sandboxId, i.stale, i.imageGeneration]),
    ).toEqual([[false, false, 1]]);
    // On a phone the panel stacks instead of scrolling sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await panel.getByTestId('stale-instances').scrollIntoViewIfNeeded();
    expect(await panel.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await page.keyboard.press('Escape');

    // A viewer: the same skill page, the install button disabled.
    await context.clearCookies();
    await signIn(page, server.base, 'viewer@example.com', PASSWORD);
    await page.goto(`${server.base}/skills/${encodeURIComponent(skillId)}`);
    await page.getByTestId('installs-card').getByTestId(`install-row-${CONFIG}`).waitFor();
    expect(await page.getByTestId('install-into-button').isDisabled()).toBe(true);
    await page.getByTestId(`sandbox-gating-${CONFIG}`).waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  },
  300_000,
);
