// Checks that the Chromium `npm test` exports (CHROMIUM_PATH) starts headless with the flags from
// DESIGN.md and renders a page from a loopback server. App e2e tests drive the same browser.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let server: http.Server;
let base: string;
let profile: string;
let context: BrowserContext | undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>harness</title><button id="b" onclick="this.textContent='clicked ' + location.pathname">go</button>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  profile = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'chromium-'));
});

afterAll(async () => {
  await context?.close();
  await new Promise((r) => server.close(r));
  fs.rmSync(profile, { recursive: true, force: true });
});

it.skipIf(!fs.existsSync(executablePath))(`Chromium (${executablePath}) renders and clicks`, async () => {
  context = await chromium.launchPersistentContext(profile, { executablePath, args });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${base}/hello`);
  expect(await page.title()).toBe('harness');
  await page.click('#b');
  expect(await page.textContent('#b')).toBe('clicked /hello');
});
