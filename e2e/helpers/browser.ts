// Chromium through playwright-core, with the flags the machine needs (no network beyond loopback).
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// One Chromium per test file, each person in it a fresh context of its own (cookies, storage): a
// context costs a fraction of a browser launch. The e2e setup file closes it after the file.
let shared: Promise<Browser> | null = null;

export async function closeSharedBrowser(): Promise<void> {
  const b = shared;
  shared = null;
  if (b) await (await b.catch(() => null))?.close();
}

export async function openBrowser(): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  shared ??= chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
  const context = await (await shared).newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  return { context, page, close: () => context.close() };
}

export async function signIn(page: Page, base: string, email: string, password: string) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/jobs/);
}
