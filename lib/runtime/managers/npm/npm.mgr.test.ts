import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../../core/process';
import { runtimeLayout } from '../../dir';
import { parsePackageSpec } from '../../spec';
import type { ManagerContext } from '../../types';
import { createNpmRegistryCache, npmInstall, npmList, npmOutdated, npmUninstall, npmUpdate } from './npm';
import { packumentUrl } from './registry';

// Against the real npm registry: tiny packages without dependencies.
const SCOPED = '@isaacs/string-locale-compare';
let root: string;
let ctx: ManagerContext;
const lines: string[] = [];

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-npm-'));
  ctx = { runtimeDir: root, log: (line) => lines.push(line) };
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const find = async (name: string) => (await npmList(ctx)).find((p) => p.name === name && p.managed);

describe('npm manager (real registry)', { timeout: 180_000 }, () => {
  it('installs an old version into the runtime prefix and lists it as managed', async () => {
    const pkg = await npmInstall(ctx, parsePackageSpec('npm:is-number@6.0.0'));
    expect(pkg).toMatchObject({ manager: 'npm', name: 'is-number', version: '6.0.0', managed: true });
    expect(fs.existsSync(path.join(runtimeLayout(root).npmModules, 'is-number', 'package.json'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'npm-cache'))).toBe(true);
    expect(lines.some((l) => l.includes('npm http fetch GET 200'))).toBe(true);
    expect(await find('is-number')).toMatchObject({ version: '6.0.0', managed: true, summary: expect.any(String) });
  });

  it('lists the Node installation’s own globals as base packages', async () => {
    const npm = (await npmList(ctx)).find((p) => p.name === 'npm');
    expect(npm).toMatchObject({ managed: false });
    await expect(npmUninstall(ctx, 'npm')).rejects.toMatchObject({ code: 'invalid_state' });
  });

  it('reports the registry latest as an update, then updates to it', async () => {
    const cache = createNpmRegistryCache();
    const { outdated, errors } = await npmOutdated(ctx, undefined, { cache });
    expect(errors).toEqual([]);
    const entry = outdated.find((o) => o.name === 'is-number');
    expect(entry).toMatchObject({ manager: 'npm', current: '6.0.0', latest: expect.stringMatching(/^7\./) });

    const updated = await npmUpdate(ctx, 'is-number');
    expect(updated.version).toBe(entry!.latest);
    expect((await find('is-number'))?.version).toBe(entry!.latest);
    expect((await npmOutdated(ctx, ['is-number'], { cache })).outdated).toEqual([]);
  });

  it('a second check revalidates with the ETag (304) when the registry sends one', async (t) => {
    const cache = createNpmRegistryCache();
    await npmOutdated(ctx, ['is-number'], { cache });
    await npmOutdated(ctx, ['is-number'], { cache });
    expect(cache.stats.requests).toBe(2);
    if (cache.entries.size === 0) t.skip('the registry reachable here sends no ETag, so it cannot answer 304 (see the loopback test)');
    expect(cache.stats.notModified).toBe(1);
  });

  it('the installed package resolves through NODE_PATH', async () => {
    const res = await runProcess(process.execPath, ['-e', "const m = require.resolve('is-number'); console.log(m, require('is-number')(5))"], {
      env: { ...process.env, NODE_PATH: runtimeLayout(root).npmModules },
      cwd: os.tmpdir(),
      timeoutMs: 30_000,
    });
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe(`${path.join(runtimeLayout(root).npmModules, 'is-number', 'index.js')} true`);
  });

  it('installs, checks, updates and removes a scoped package', async () => {
    await npmInstall(ctx, parsePackageSpec(`npm:${SCOPED}@1.0.1`));
    expect(await find(SCOPED)).toMatchObject({ version: '1.0.1' });
    const { outdated } = await npmOutdated(ctx, [SCOPED]);
    expect(outdated).toEqual([{ manager: 'npm', name: SCOPED, current: '1.0.1', latest: expect.any(String) }]);
    expect((await npmUpdate(ctx, SCOPED, '1.1.0')).version).toBe('1.1.0');
    await npmUninstall(ctx, SCOPED);
    expect(fs.existsSync(path.join(runtimeLayout(root).npmModules, SCOPED))).toBe(false);
    expect(await find(SCOPED)).toBeUndefined();
  });

  it('uninstalls and verifies the package dir is gone', async () => {
    await npmUninstall(ctx, 'is-number');
    expect(fs.existsSync(path.join(runtimeLayout(root).npmModules, 'is-number'))).toBe(false);
    expect(await find('is-number')).toBeUndefined();
    await expect(npmUninstall(ctx, 'is-number')).rejects.toMatchObject({ code: 'not_found' });
    await expect(npmUpdate(ctx, 'is-number')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a package that does not exist fails with NOT_FOUND / not_found', async () => {
    const name = `skilldock-definitely-not-a-package-${Math.random().toString(36).slice(2, 10)}`;
    const err = await npmInstall(ctx, parsePackageSpec(`npm:${name}`)).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AppError', code: 'not_found', details: { manager: 'npm', class: 'not_found' } });
    const missing = await npmOutdated(ctx, []);
    expect(missing).toEqual({ outdated: [], errors: [] });
  });

  it('rejects a registry setting that is not a plain http(s) URL before running npm', async () => {
    for (const npmRegistry of ['ftp://example.invalid/', 'file:///etc', 'https://user:pw@example.invalid/', 'not a url']) {
      const bad = { ...ctx, settings: { npmRegistry } };
      await expect(npmInstall(bad, parsePackageSpec('npm:is-number'))).rejects.toMatchObject({ code: 'validation' });
    }
    await expect(npmUpdate(ctx, 'is-number', '^7')).rejects.toMatchObject({ code: 'validation' });
    await expect(npmUninstall(ctx, '-rf')).rejects.toMatchObject({ code: 'validation' });
  });
});

describe('npm registry cache (loopback registry serving a real packument)', { timeout: 60_000 }, () => {
  it('sends If-None-Match, reuses the cached answer on 304, encodes scoped names', async () => {
    const real = await (
      await fetch(packumentUrl('https://registry.npmjs.org/', SCOPED), { headers: { accept: 'application/vnd.npm.install-v1+json' } })
    ).text();
    const seen: { url?: string; inm?: string }[] = [];
    const server = http.createServer((req, res) => {
      seen.push({ url: req.url, inm: req.headers['if-none-match'] as string | undefined });
      if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' }).end(real);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      await npmInstall(ctx, parsePackageSpec(`npm:${SCOPED}@1.0.0`));
      const local = { ...ctx, settings: { npmRegistry: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` } };
      const cache = createNpmRegistryCache();
      const first = await npmOutdated(local, undefined, { cache });
      const second = await npmOutdated(local, undefined, { cache });
      expect(first.outdated).toEqual([{ manager: 'npm', name: SCOPED, current: '1.0.0', latest: JSON.parse(real)['dist-tags'].latest }]);
      expect(second).toEqual(first);
      expect(cache.stats).toMatchObject({ requests: 2, fetched: 1, notModified: 1, errors: 0 });
      expect(seen).toEqual([
        { url: '/@isaacs%2fstring-locale-compare', inm: undefined },
        { url: '/@isaacs%2fstring-locale-compare', inm: '"v1"' },
      ]);
    } finally {
      server.close();
      await npmUninstall(ctx, SCOPED).catch(() => undefined);
    }
  });
});
