import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWheel } from '../../../../test/helpers/wheels';
import { isAppError } from '../../../core/errors';
import { runProcess } from '../../../core/process';
import { ensureRuntimeDir } from '../../dir';
import type { ManagerContext, PackageSpec } from '../../types';
import { pipInstall, pipList, pipOutdated, pipRecordPaths, pipUninstall, pipUpdate, resolvePipRecordPath } from './pip';

// Real pip against wheels this test builds: installed with --no-index --find-links, never from PyPI.

const spec = (name: string, version?: string): PackageSpec => ({ raw: `pip:${name}${version ?? ''}`, manager: 'pip', name, ...(version ? { version } : {}) });

const demoModule = (version: string) => `__version__ = "${version}"\n\ndef main():\n    print("skd-demo " + __version__)\n`;

let root: string;
let wheels: string;
let target: string;
let ctx: ManagerContext;
const logs: string[] = [];

async function python(code: string) {
  const env = { ...process.env, PYTHONPATH: target };
  return runProcess('python3', ['-c', code], { env, timeoutMs: 30_000 });
}

async function importedVersion(): Promise<string> {
  const r = await python('import skd_demo; print(skd_demo.__version__)');
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skd-pip-'));
  wheels = path.join(root, 'wheels');
  const layout = ensureRuntimeDir(path.join(root, 'rt'));
  target = layout.pip;
  ctx = { runtimeDir: layout.root, settings: { pipFindLinks: wheels, pipNoIndex: '1' }, log: (line) => logs.push(line) };
  await buildWheel(wheels, {
    name: 'skd-demo',
    version: '1.0.0',
    summary: 'Skilldock demo package',
    modules: { 'skd_demo/__init__.py': demoModule('1.0.0'), 'skd_demo/legacy.py': 'OLD = True\n' },
    consoleScripts: { 'skd-demo': 'skd_demo:main' },
  });
  await buildWheel(wheels, {
    name: 'skd-other',
    version: '0.3.0',
    modules: { 'skd_other/__init__.py': 'def main():\n    print("other")\n' },
    consoleScripts: { 'skd-other': 'skd_other:main' },
  });
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('pip manager with real pip', { timeout: 120_000 }, () => {
  it('installs a pinned version with its console script', async () => {
    const installed = await pipInstall(ctx, spec('skd-demo', '==1.0.0'));
    expect(installed).toMatchObject({ manager: 'pip', name: 'skd-demo', version: '1.0.0', managed: true });
    expect(await importedVersion()).toBe('1.0.0');
    const script = path.join(target, 'bin', 'skd-demo');
    expect(fs.existsSync(script)).toBe(true);
    const run = await runProcess(script, [], { env: { ...process.env, PYTHONPATH: target }, timeoutMs: 30_000 });
    expect(run.stdout.trim()).toBe('skd-demo 1.0.0');
    expect(logs.some((l) => l.includes('--no-index') && !l.includes('--break-system-packages'))).toBe(true);
  });

  it("keeps other packages' console scripts when a second package installs into bin/", async () => {
    await pipInstall(ctx, spec('skd-other'));
    expect(fs.existsSync(path.join(target, 'bin', 'skd-demo'))).toBe(true);
    expect(fs.existsSync(path.join(target, 'bin', 'skd-other'))).toBe(true);
  });

  it('lists managed packages from METADATA and base packages read-only', async () => {
    const list = await pipList(ctx);
    expect(list.find((p) => p.name === 'skd-demo')).toMatchObject({ version: '1.0.0', managed: true, summary: 'Skilldock demo package' });
    expect(
      list
        .filter((p) => p.managed)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['skd-demo', 'skd-other']);
    expect(list.some((p) => !p.managed && p.name.toLowerCase() === 'pip')).toBe(true);
  });

  it('reports the newest stable version as outdated, pre-releases only on request', async () => {
    await buildWheel(wheels, {
      name: 'skd-demo',
      version: '1.1.0',
      modules: { 'skd_demo/__init__.py': demoModule('1.1.0') },
      consoleScripts: { 'skd-demo': 'skd_demo:main' },
    });
    await buildWheel(wheels, { name: 'skd-demo', version: '2.0.0rc1', modules: { 'skd_demo/__init__.py': demoModule('2.0.0rc1') } });
    const res = await pipOutdated(ctx);
    expect(res.errors).toEqual([]);
    expect(res.outdated).toEqual([{ manager: 'pip', name: 'skd-demo', current: '1.0.0', latest: '1.1.0' }]);
    const pre = await pipOutdated(ctx, ['skd-demo'], { pre: true });
    expect(pre.outdated).toEqual([{ manager: 'pip', name: 'skd-demo', current: '1.0.0', latest: '2.0.0rc1', prerelease: true }]);
  });

  it('keeps the other results when one look-up fails', async () => {
    const bad = path.join(target, 'skd_broken-0.1.dist-info');
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, 'METADATA'), 'Metadata-Version: 2.1\nName: skd-broken\nVersion: not a version\n\n');
    await buildWheel(wheels, { name: 'skd-broken', version: '0.2', modules: { 'skd_broken.py': '' } });
    try {
      const res = await pipOutdated(ctx, ['skd-demo', 'skd-broken', 'skd-absent']);
      expect(res.outdated.map((o) => o.name)).toEqual(['skd-demo']);
      expect(res.errors.map((e) => e.name).sort()).toEqual(['skd-absent', 'skd-broken']);
      expect(res.errors.find((e) => e.name === 'skd-absent')?.class).toBe('not_found');
    } finally {
      fs.rmSync(bad, { recursive: true });
    }
  });

  it('updates to the newest stable version and leaves no trace of the old one', async () => {
    const updated = await pipUpdate(ctx, 'skd-demo');
    expect(updated.version).toBe('1.1.0');
    expect(await importedVersion()).toBe('1.1.0');
    expect(fs.readdirSync(target).filter((e) => e.startsWith('skd_demo-'))).toEqual(['skd_demo-1.1.0.dist-info']);
    expect(fs.existsSync(path.join(target, 'skd_demo', 'legacy.py'))).toBe(false);
    expect(fs.existsSync(path.join(target, 'bin', 'skd-other'))).toBe(true);
  });

  it('honours toVersion, also downwards', async () => {
    const updated = await pipUpdate(ctx, 'skd-demo', '1.0.0');
    expect(updated.version).toBe('1.0.0');
    expect(await importedVersion()).toBe('1.0.0');
    expect(fs.readdirSync(target).filter((e) => e.startsWith('skd_demo-'))).toEqual(['skd_demo-1.0.0.dist-info']);
  });

  it('uninstalls every file of the RECORD, the console script included', async () => {
    const record = fs.readFileSync(path.join(target, 'skd_demo-1.0.0.dist-info', 'RECORD'), 'utf8');
    const files = pipRecordPaths(record).map((rel) => resolvePipRecordPath(target, rel));
    expect(files).toContain(path.join(target, 'bin', 'skd-demo'));
    const res = await pipUninstall(ctx, 'SKD_Demo');
    expect(res).toMatchObject({ name: 'skd-demo', version: '1.0.0' });
    expect(res.removed).toContain('bin/skd-demo');
    for (const f of files) expect(fs.existsSync(f), f).toBe(false);
    expect(fs.existsSync(path.join(target, 'skd_demo'))).toBe(false);
    expect((await python('import skd_demo')).code).not.toBe(0);
    expect(fs.existsSync(path.join(target, 'bin', 'skd-other'))).toBe(true);
    const again = await catchError(pipUninstall(ctx, 'skd-demo'));
    expect(isAppError(again) && again.code).toBe('not_found');
    expect((again as Error).message).toBe('pip package skd-demo is not installed in the runtime dir.');
  });

  it('classifies a missing package as not_found', async () => {
    const err = await catchError(pipInstall(ctx, spec('skd-missing', '==9.9')));
    expect(isAppError(err)).toBe(true);
    if (isAppError(err)) {
      expect(err.code).toBe('not_found');
      expect(err.details).toMatchObject({ manager: 'pip', class: 'not_found' });
    }
  });

  it('refuses a RECORD that points outside the runtime dir and deletes nothing', async () => {
    const outside = path.join(root, 'evil');
    fs.writeFileSync(outside, 'keep me');
    const pkg = path.join(target, 'skd_evil');
    fs.mkdirSync(pkg);
    fs.writeFileSync(path.join(pkg, '__init__.py'), '');
    const dist = path.join(target, 'skd_evil-1.0.dist-info');
    fs.mkdirSync(dist);
    fs.writeFileSync(path.join(dist, 'METADATA'), 'Metadata-Version: 2.1\nName: skd-evil\nVersion: 1.0\n\n');
    const write = (lines: string[]) => fs.writeFileSync(path.join(dist, 'RECORD'), lines.join('\n') + '\n');

    write(['skd_evil/__init__.py,,', '../../evil,,', 'skd_evil-1.0.dist-info/RECORD,,']);
    let err = await catchError(pipUninstall(ctx, 'skd-evil'));
    expect(isAppError(err) && err.code).toBe('invalid_state');

    write(['skd_evil/__init__.py,,', `${outside},,`]);
    err = await catchError(pipUninstall(ctx, 'skd-evil'));
    expect(isAppError(err) && err.code).toBe('invalid_state');

    fs.mkdirSync(path.join(root, 'elsewhere'));
    fs.writeFileSync(path.join(root, 'elsewhere', 'secret'), 'keep me too');
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(target, 'skd_link'));
    write(['skd_evil/__init__.py,,', 'skd_link/secret,,']);
    err = await catchError(pipUninstall(ctx, 'skd-evil'));
    expect(isAppError(err) && err.code).toBe('invalid_state');

    expect(fs.readFileSync(outside, 'utf8')).toBe('keep me');
    expect(fs.existsSync(path.join(root, 'elsewhere', 'secret'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, '__init__.py'))).toBe(true);
    expect(fs.existsSync(path.join(dist, 'RECORD'))).toBe(true);
  });
});

describe('pip manager against a loopback package index', { timeout: 120_000 }, () => {
  let server: http.Server;
  let indexCtx: ManagerContext;
  const indexLogs: string[] = [];

  beforeAll(async () => {
    // A PEP 503 simple index over the wheels built above.
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const project = /^\/simple\/([^/]+)\/$/.exec(url.pathname)?.[1];
      if (project) {
        const files = fs.readdirSync(wheels).filter((f) => f.split('-')[0].replace(/_/g, '-') === project);
        if (!files.length) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end(`<html><body>${files.map((f) => `<a href="/files/${f}">${f}</a>`).join('\n')}</body></html>`);
      }
      const file = /^\/files\/([^/]+\.whl)$/.exec(url.pathname)?.[1];
      if (file && fs.existsSync(path.join(wheels, file))) return void res.writeHead(200).end(fs.readFileSync(path.join(wheels, file)));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const layout = ensureRuntimeDir(path.join(root, 'rt-index'));
    indexCtx = { runtimeDir: layout.root, settings: { pipIndexUrl: `http://skd:s3cret@127.0.0.1:${port}/simple/` }, log: (l) => indexLogs.push(l) };
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('installs from the index and checks it with pip index versions', async () => {
    expect((await pipInstall(indexCtx, spec('skd-demo', '==1.0.0'))).version).toBe('1.0.0');
    const res = await pipOutdated(indexCtx, ['skd-demo']);
    expect(res.errors).toEqual([]);
    expect(res.outdated).toEqual([{ manager: 'pip', name: 'skd-demo', current: '1.0.0', latest: '1.1.0' }]);
    const command = indexLogs.find((l) => l.includes('--index-url'));
    expect(command).toContain('http://***@127.0.0.1');
    expect(indexLogs.join('\n')).not.toContain('s3cret');
  });
});
