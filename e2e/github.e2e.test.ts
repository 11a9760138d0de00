// GitHub-release packages in Chromium as the owner, against a loopback fake GitHub serving real tar.gz
// archives of a real ELF program: Settings → GitHub points the API at the fake; the GitHub section browses
// the releases (chosen asset, rejected .deb and darwin assets with their reasons), installs v1.0.0 from
// the picker with its log followed live (verified by the checksums file); Refresh updates offers
// v2.0.0, which is applied from the updates table; the row rolls back to v1.0.0 and is uninstalled.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeGithub, sha256, tarGzWith } from '../test/helpers/github-server';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, startServer } from './helpers/server';
import { PASSWORD } from './helpers/session';

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let gh: FakeGithub;
const REPO = 'acme/hello-tool';
const TRUE = fs.readFileSync('/usr/bin/true');
const archive = (tag: string) =>
  tarGzWith(`hello-tool_${tag}_linux_amd64`, { 'hello-tool': TRUE, 'README.md': `# hello-tool ${tag}\n` }, { exec: ['hello-tool'] });

beforeAll(async () => {
  await ensureBuilt();
  gh = await new FakeGithub().start();
  const v1 = archive('v1.0.0');
  const v2 = archive('v2.0.0');
  gh.releases.set(REPO, [
    {
      tag: 'v2.0.0',
      publishedAt: '2026-03-01T00:00:00Z',
      assets: [
        { name: 'hello-tool_2.0.0_linux_amd64.tar.gz', data: v2, digest: true },
        { name: 'hello-tool_2.0.0_darwin_arm64.tar.gz', data: Buffer.from('not for this host') },
        { name: 'hello-tool_2.0.0_linux_amd64.deb', data: Buffer.from('a debian package') },
      ],
    },
    {
      tag: 'v1.0.0',
      publishedAt: '2026-01-01T00:00:00Z',
      assets: [
        { name: 'hello-tool_1.0.0_linux_amd64.tar.gz', data: v1 },
        { name: 'checksums.txt', data: Buffer.from(`${sha256(v1)}  hello-tool_1.0.0_linux_amd64.tar.gz\n`) },
      ],
    },
  ]);
  server = await startServer({ env: { SKILLDOCK_ADMIN_EMAIL: 'owner@example.com', SKILLDOCK_ADMIN_PASSWORD: PASSWORD } });
  browser = await openBrowser();
}, 600_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await gh?.stop();
});

it('browses, installs, updates, rolls back and uninstalls a GitHub-release binary from the page', async () => {
  const page = browser.page;
  await signIn(page, server.base, 'owner@example.com', PASSWORD);

  // Settings → GitHub: the API base URL becomes the fake's, and only that field is sent.
  await page.goto(`${server.base}/settings#github`);
  const form = page.getByTestId('github-settings-form');
  const apiBase = form.getByLabel('API base URL');
  await apiBase.fill('ftp://nope');
  await form.getByText(/an http\(s\) URL/).waitFor();
  expect(await form.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
  await apiBase.fill(gh.base);
  await form.getByText('Unsaved: API base URL').waitFor();
  await form.getByRole('button', { name: 'Save' }).click();
  await page.getByText('GitHub settings saved').waitFor();
  const settings = await page.evaluate(async () => (await fetch('/api/v1/settings/github')).json());
  expect(settings.apiBaseUrl.replace(/\/$/, '')).toBe(gh.base);

  // The GitHub tab: the repository is validated as you type, then its releases are browsed.
  await page.goto(`${server.base}/runtime`);
  const sections = page.getByRole('navigation', { name: 'Runtime sections' });
  await sections.getByRole('link', { name: 'GitHub' }).click();
  await page.waitForURL(/[?&]tab=github\b/);
  await page.getByTestId('github-status').getByText(gh.base, { exact: false }).waitFor();
  const repoInput = page.getByLabel('GitHub repository');
  await repoInput.fill('acme/hello tool');
  await page.getByText(/whitespace at position/).waitFor();
  expect(await page.getByRole('button', { name: 'Browse releases' }).isDisabled()).toBe(true);
  await repoInput.fill(REPO);
  await page.getByRole('button', { name: 'Browse releases' }).click();

  const picker = page.getByRole('dialog', { name: `Releases of ${REPO}` });
  const v2 = picker.locator('li[data-tag="v2.0.0"]');
  await v2.waitFor();
  expect(await v2.getByTestId('chosen-asset').textContent()).toContain('hello-tool_2.0.0_linux_amd64.tar.gz');
  expect(await v2.getByTestId('asset-counts').textContent()).toBe('1 matching / 3 total assets');
  await v2.getByText('Why this asset').click();
  const deb = v2.locator('li[data-rejected="hello-tool_2.0.0_linux_amd64.deb"]');
  const darwin = v2.locator('li[data-rejected="hello-tool_2.0.0_darwin_arm64.tar.gz"]');
  await deb.waitFor();
  expect(await deb.textContent()).toContain('denied extension .deb');
  expect(await darwin.textContent()).toContain('other OS (darwin)');
  expect(await picker.locator('li[data-tag="v1.0.0"]').getByTestId('chosen-asset').textContent()).toContain('hello-tool_1.0.0_linux_amd64.tar.gz');

  // Install v1.0.0 from the picker; the log drawer follows the job to its end.
  await picker.getByRole('button', { name: 'Install v1.0.0' }).click();
  await picker.waitFor({ state: 'detached' });
  const drawer = page.getByTestId('job-drawer');
  await drawer.getByRole('log', { name: 'Job log' }).waitFor();
  await page.locator('[data-testid="job-drawer"][data-state="succeeded"]').waitFor({ timeout: 120_000 });
  expect(await drawer.getAttribute('data-state')).toBe('succeeded');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });

  const table = page.getByRole('table', { name: 'GitHub packages' });
  const row = table.locator('tr[data-package="hello-tool"]');
  await table.locator('tr[data-package="hello-tool"][data-tag="v1.0.0"]').waitFor({ timeout: 60_000 });
  expect(await row.locator('[data-verification]').getAttribute('data-verification')).toBe('checksums_file');
  expect(await row.getByText('Checksum', { exact: true }).count()).toBe(1);
  expect(await row.locator('li[data-binary="hello-tool"]').textContent()).toMatch(/hello-tool(glibc|musl|static)/);

  // Pre-releases: off by default, switched on and off again from the row; the API agrees each time.
  const toggle = row.getByRole('button', { name: 'Pre-releases for hello-tool' });
  expect(await toggle.getAttribute('aria-pressed')).toBe('false');
  await toggle.click();
  await row.locator('button[aria-pressed="true"]').waitFor();
  const channelOf = () =>
    page.evaluate(
      async () =>
        ((await (await fetch('/api/v1/packages/github')).json()) as { packages: { name: string; channel: string }[] }).packages.find(
          (p) => p.name === 'hello-tool',
        )?.channel,
    );
  expect(await channelOf()).toBe('prerelease');
  await toggle.click();
  await row.locator('button[aria-label="Pre-releases for hello-tool"][aria-pressed="false"]').waitFor();
  expect(await channelOf()).toBe('stable');

  // Check for updates (the Updates section): the GitHub source offers v1.0.0 → v2.0.0; Update from the row applies it.
  await sections.getByRole('link', { name: /^Updates/ }).click();
  await page.waitForURL(/[?&]tab=updates\b/);
  const bar = page.getByTestId('updates-bar');
  const refresh = bar.getByRole('button', { name: 'Check for updates', exact: true });
  await refresh.waitFor({ timeout: 120_000 });
  await refresh.click();
  const updateRow = page.getByRole('table', { name: 'Available updates' }).locator('tr[data-update="hello-tool"][data-source="github"]');
  await updateRow.waitFor({ timeout: 120_000 });
  expect((await updateRow.textContent())?.replace(/\s+/g, '')).toContain('v1.0.0→v2.0.0');
  expect(await updateRow.locator('[data-source="github"]').count()).toBe(1);
  await updateRow.getByRole('button', { name: 'Update hello-tool' }).click();
  await page.locator('[data-testid="job-drawer"][data-state="succeeded"]').waitFor({ timeout: 120_000 });
  await page.keyboard.press('Escape');
  await updateRow.waitFor({ state: 'detached', timeout: 60_000 });
  await sections.getByRole('link', { name: 'GitHub' }).click();
  await table.locator('tr[data-package="hello-tool"][data-tag="v2.0.0"]').waitFor({ timeout: 60_000 });
  expect(await row.locator('[data-verification]').getAttribute('data-verification')).toBe('api_digest');
  // At the latest release, the row offers no enabled Update.
  expect(await row.getByRole('button', { name: 'Update hello-tool' }).isDisabled()).toBe(true);

  // Roll back to the kept v1.0.0 from the dialog.
  await row.getByRole('button', { name: 'Roll back hello-tool' }).click();
  const rollback = page.getByRole('dialog', { name: 'Roll back hello-tool' });
  expect(await rollback.locator('label[data-version="v1.0.0"] input').isChecked()).toBe(true);
  await rollback.getByRole('button', { name: 'Roll back to v1.0.0' }).click();
  await page.locator('[data-testid="job-drawer"][data-state="succeeded"]').waitFor({ timeout: 120_000 });
  await page.keyboard.press('Escape');
  await table.locator('tr[data-package="hello-tool"][data-tag="v1.0.0"]').waitFor({ timeout: 60_000 });
  // Now the kept version is the newer v2.0.0: the row offers "Activate" (not "Roll back") and Update again.
  await row.getByRole('button', { name: 'Activate hello-tool' }).click();
  const activate = page.getByRole('dialog', { name: 'Activate a kept version of hello-tool' });
  await activate.getByRole('button', { name: 'Activate v2.0.0' }).waitFor();
  await activate.getByRole('button', { name: 'Cancel' }).click();
  await activate.waitFor({ state: 'detached' });
  expect(await row.getByRole('button', { name: 'Update hello-tool' }).isDisabled()).toBe(false);

  // Uninstall: the confirmation names the program that leaves PATH.
  await row.getByRole('button', { name: 'Uninstall hello-tool' }).click();
  const confirm = page.getByRole('alertdialog');
  expect(await confirm.textContent()).toContain('These programs disappear from PATH');
  expect(await confirm.locator('code').allTextContents()).toEqual(['hello-tool']);
  await confirm.getByRole('button', { name: 'Uninstall' }).click();
  await page.locator('[data-testid="job-drawer"][data-state="succeeded"]').waitFor({ timeout: 120_000 });
  await page.keyboard.press('Escape');
  await row.waitFor({ state: 'detached', timeout: 60_000 });
  const overview = await page.evaluate(async () => (await fetch('/api/v1/packages/github')).json());
  expect(overview.packages).toEqual([]);
  expect(gh.requests.some((r) => r.path.includes('/releases/download/v1.0.0/'))).toBe(true);
});
