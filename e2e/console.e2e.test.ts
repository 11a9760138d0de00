// The console in Chromium against the production build: first-run setup, users and roles,
// read-only UI for a viewer, a job followed live, a running job canceled, and the audit trail.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBrowser, signIn } from './helpers/browser';
import { ensureBuilt, type RunningServer, setupToken, startServer } from './helpers/server';
import { PASSWORD } from './helpers/session';

let server: RunningServer;
const browsers: Awaited<ReturnType<typeof openBrowser>>[] = [];

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
});
afterAll(async () => {
  for (const b of browsers) await b.close();
  await server?.stop();
});

/** Writes the pages sent to the REST API (method and path); the console's own writes are server actions. */
const restWrites: string[] = [];
const actionCalls: string[] = [];

const browser = async () => {
  const b = await openBrowser();
  browsers.push(b);
  b.page.on('request', (r) => {
    const url = new URL(r.url());
    if (r.method() !== 'GET' && r.headers()['next-action']) actionCalls.push(url.pathname);
    else if (r.method() !== 'GET' && /^\/api\/(v1|setup)\b/.test(url.pathname)) restWrites.push(`${r.method()} ${url.pathname}`);
  });
  return b.page;
};

it('runs the operator journey end to end', async () => {
  const base = server.base;

  // First run leads to setup; the owner lands in the console.
  const owner = await browser();
  await owner.goto(base);
  await owner.waitForURL(/\/setup$/);
  await owner.getByLabel('Setup token').fill(setupToken(server.dataDir));
  await owner.getByLabel('Your name').fill('Olga Owner');
  await owner.getByLabel('Email').fill('owner@example.com');
  await owner.getByLabel('Password').fill(PASSWORD);
  await owner.getByRole('button', { name: 'Create owner account' }).click();
  await owner.waitForURL(/\/overview/);
  await owner.getByTestId('current-role').filter({ hasText: 'owner' }).waitFor();

  // The owner creates an admin and a viewer from Settings.
  await owner.goto(`${base}/settings#users`);
  for (const [name, role] of [
    ['Ada Admin', 'admin'],
    ['Vic Viewer', 'viewer'],
  ] as const) {
    await owner.getByRole('button', { name: 'Add user' }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Email').fill(`${role}@example.com`);
    await dialog.getByLabel('Role').selectOption(role);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await owner.getByRole('cell', { name: `${role}@example.com` }).waitFor();
  }

  // The only owner's own row offers no Disable and no role change (the server would refuse both); another user's row does.
  const ownRow = owner.locator('[data-testid="user-row"][data-email="owner@example.com"]');
  expect(await ownRow.getByRole('button', { name: 'Disable' }).isDisabled()).toBe(true);
  expect(await ownRow.getByRole('combobox').isDisabled()).toBe(true);
  const adminRow = owner.locator('[data-testid="user-row"][data-email="admin@example.com"]');
  expect(await adminRow.getByRole('button', { name: 'Disable' }).isDisabled()).toBe(false);
  expect(await adminRow.getByRole('combobox').isDisabled()).toBe(false);

  // A rule only the server can check (the email is taken) comes back from the server action as a
  // field issue and shows under the Email field, with the dialog still open.
  await owner.getByRole('button', { name: 'Add user' }).click();
  const again = owner.getByRole('dialog');
  await again.getByLabel('Name').fill('Ada Again');
  await again.getByLabel('Email').fill('admin@example.com');
  await again.getByLabel('Password').fill(PASSWORD);
  await again.getByRole('button', { name: 'Create user' }).click();
  await again.getByRole('alert').filter({ hasText: 'Already in use' }).waitFor();
  expect(await again.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
  await again.getByRole('button', { name: 'Cancel' }).click();
  await again.waitFor({ state: 'hidden' });

  // The viewer sees the same pages with write controls disabled, and the API refuses their writes.
  const viewer = await browser();
  await signIn(viewer, base, 'viewer@example.com', PASSWORD);
  await viewer.getByTestId('current-role').filter({ hasText: 'viewer' }).waitFor();
  expect(await viewer.getByRole('button', { name: 'Run diagnostics' }).isDisabled()).toBe(true);
  expect(await viewer.getByRole('button', { name: 'Log self-test' }).isDisabled()).toBe(true);
  const viewerWrite = await viewer.evaluate(async () => {
    const r = await fetch('/api/v1/jobs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'diagnostics' }) });
    return { status: r.status, body: await r.json() };
  });
  expect(viewerWrite.status).toBe(403);
  expect(viewerWrite.body.error.code).toBe('forbidden');
  expect(await viewer.getByRole('link', { name: 'Audit log' }).count()).toBe(0);

  // The admin runs diagnostics and watches its log arrive.
  const admin = await browser();
  await signIn(admin, base, 'admin@example.com', PASSWORD);
  await admin.getByRole('button', { name: 'Run diagnostics' }).click();
  await admin.getByRole('button', { name: 'Open job' }).click();
  await admin.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  const log = admin.getByRole('log', { name: 'Job log' });
  await log.getByText(`v${process.versions.node}`, { exact: true }).waitFor();
  await admin.locator('[data-state="succeeded"]').first().waitFor();
  await admin.getByRole('cell', { name: 'git', exact: true }).waitFor();

  // A slow self-test streams live while running; the admin cancels it.
  await admin.goto(`${base}/jobs`);
  await admin.getByRole('button', { name: 'Log self-test' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Lines', { exact: true }).fill('100000');
  await dialog.getByLabel('Lines per second').fill('20');
  await dialog.getByRole('button', { name: 'Start self-test' }).click();
  await admin.getByRole('button', { name: 'Open job' }).click();
  await admin.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
  const jobUrl = admin.url();
  await admin.locator('[data-state="running"]').first().waitFor();
  await log.getByText('line 3 of 100000', { exact: false }).waitFor();
  expect(await admin.locator('[data-state="running"]').count()).toBeGreaterThan(0);
  await admin.getByRole('button', { name: 'Cancel', exact: true }).click();
  await admin.getByRole('button', { name: 'Cancel job' }).click();
  await admin.locator('[data-state="canceled"]').first().waitFor();
  await log.getByText('[skilldock] canceled').waitFor();

  // The audit log lists all of it.
  await admin.goto(`${base}/audit`);
  const audit = admin.getByRole('table', { name: 'Audit log' });
  for (const action of ['user.setup', 'user.create', 'auth.login', 'job.start', 'job.cancel']) {
    await audit.getByText(action, { exact: true }).first().waitFor();
  }
  // Part of an action name filters the log: "user" finds user.setup and user.create, and no job rows.
  await admin.locator('#audit-action').fill('user');
  await admin.waitForURL(/[?&]action=user\b/);
  await audit.getByText('job.start', { exact: true }).first().waitFor({ state: 'detached' });
  for (const action of ['user.setup', 'user.create']) await audit.getByText(action, { exact: true }).first().waitFor();
  const partial = await admin.evaluate(async () => (await fetch('/api/v1/audit?action=user&limit=500')).json());
  const found = new Set(partial.items.map((r: { action: string }) => r.action));
  expect(found.has('user.setup') && found.has('user.create')).toBe(true);
  expect([...found].every((a) => (a as string).includes('user'))).toBe(true);
  await admin.locator('#audit-action').fill('');

  const jobId = jobUrl.split('/').pop()!;
  const api = await admin.evaluate(async (id) => (await fetch(`/api/v1/audit?target=${id}`)).json(), jobId);
  expect(api.items.map((r: { action: string }) => r.action).sort()).toEqual(['job.cancel', 'job.start']);

  // Setup, users, the job starts and the cancel all went through server actions; the only REST
  // write is the viewer's deliberate fetch above.
  expect(actionCalls.length).toBeGreaterThanOrEqual(6);
  expect(restWrites).toEqual(['POST /api/v1/jobs']);
});
