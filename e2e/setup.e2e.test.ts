// A fresh instance cannot be claimed by whoever reaches it first: setup needs the one-time token
// from the server log or data dir, and requests for a foreign Host (DNS rebinding) are refused.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openBrowser } from './helpers/browser';
import { ensureBuilt, type RunningServer, setupToken, startServer } from './helpers/server';
import { PASSWORD } from './helpers/session';

let server: RunningServer;
let browser: Awaited<ReturnType<typeof openBrowser>> | undefined;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A raw HTTP request with any Host header (fetch will not send a forged one). */
function rawRequest(host: string, method: string, urlPath: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, method, path: urlPath, headers: { host, 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A raw upgrade request; resolves with what the server wrote once the connection closed. */
function rawUpgrade(host: string, urlPath: string) {
  return new Promise<string>((resolve, reject) => {
    const s = net.connect(server.port, '127.0.0.1');
    let got = '';
    s.on('data', (d) => (got += d));
    s.on('end', () => s.end());
    s.on('close', () => resolve(got));
    s.on('error', reject);
    s.write(
      `GET ${urlPath} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
  });
}

const owner = { email: 'owner@example.com', name: 'Olga Owner', password: PASSWORD };
const local = () => `127.0.0.1:${server.port}`;

it('logs the setup URL with the token the data dir holds', () => {
  const token = setupToken(server.dataDir);
  expect(fs.statSync(path.join(server.dataDir, 'setup-token')).mode & 0o777).toBe(0o600);
  expect(server.output()).toContain(`/setup?token=${token}`);
});

it('refuses setup without the token, or with a wrong one', async () => {
  const none = await rawRequest(local(), 'POST', '/api/setup', JSON.stringify(owner));
  expect(none.status).toBe(403);
  const wrong = await rawRequest(local(), 'POST', '/api/setup', JSON.stringify({ ...owner, token: 'guessed' }));
  expect(wrong.status).toBe(403);
  expect(JSON.parse((await rawRequest(local(), 'GET', '/api/setup')).body)).toEqual({ needed: true });
});

it('refuses a foreign Host on every route and socket, even with the token', async () => {
  const setup = await rawRequest('evil.example', 'POST', '/api/setup', JSON.stringify({ ...owner, token: setupToken(server.dataDir) }));
  expect(setup.status).toBe(403);
  expect(JSON.parse(setup.body).error.code).toBe('host_not_allowed');
  for (const p of ['/', '/setup', '/api/health', '/api/v1/me']) expect((await rawRequest(`evil.example:${server.port}`, 'GET', p)).status, p).toBe(403);
  expect(await rawUpgrade('evil.example', '/ws/jobs')).toMatch(/^HTTP\/1\.1 403 /);
  expect(JSON.parse((await rawRequest(local(), 'GET', '/api/setup')).body)).toEqual({ needed: true });
});

it('answers an upgrade outside /ws/ and closes the connection', async () => {
  expect(await rawUpgrade(local(), '/foo')).toMatch(/^HTTP\/1\.1 404 /);
});

it('sets up in the browser with the token from the logged URL, and only once', async () => {
  browser = await openBrowser();
  const { page } = browser;
  // Without the token in the URL the field is empty and required.
  await page.goto(`${server.base}/setup`);
  const field = page.getByLabel('Setup token');
  await field.waitFor();
  expect(await field.inputValue()).toBe('');
  expect(await field.getAttribute('required')).not.toBeNull();
  await page.getByLabel('Your name').fill(owner.name);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Create owner account' }).click();
  await page.getByText('Enter the setup token').waitFor();
  expect(new URL(page.url()).pathname).toBe('/setup');

  // The logged URL prefills it.
  const url = /(http:\/\/\S+\/setup\?token=[A-Za-z0-9_%-]+)/.exec(server.output())![1].replace(/^http:\/\/[^/]+/, server.base);
  await page.goto(url);
  expect(await page.getByLabel('Setup token').inputValue()).toBe(setupToken(server.dataDir));
  await page.getByLabel('Your name').fill(owner.name);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password').fill(owner.password);
  await page.getByRole('button', { name: 'Create owner account' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/setup') && !u.pathname.startsWith('/login'));
  await page.getByTestId('current-role').filter({ hasText: 'owner' }).waitFor();

  expect(fs.existsSync(path.join(server.dataDir, 'setup-token'))).toBe(false);
  const again = await rawRequest(local(), 'POST', '/api/setup', JSON.stringify({ ...owner, email: 'late@example.com', token: 'anything' }));
  expect(again.status).toBe(409);
});
