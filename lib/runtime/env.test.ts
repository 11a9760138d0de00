import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../core/process';
import { joinPathList, splitPathList, which } from '../core/which';
import { ensureRuntimeDir, runtimeLayout } from './dir';
import { describeRuntimeEnv, runtimeEnv, systemNodeModules, toolEnv } from './env';

let tmp: string;
let fakePrefix: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-env-'));
  // A node install of its own: <prefix>/bin/node and <prefix>/lib/node_modules.
  fakePrefix = path.join(tmp, 'prefix');
  fs.mkdirSync(path.join(fakePrefix, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(fakePrefix, 'lib', 'node_modules'), { recursive: true });
  fs.writeFileSync(path.join(fakePrefix, 'bin', 'node'), '#!/bin/sh\n', { mode: 0o755 });
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('runtimeEnv', () => {
  const layout = () => runtimeLayout(path.join(tmp, 'rt'));

  it('sets every variable and keeps the allowlisted rest of the base env', () => {
    const l = layout();
    const env = runtimeEnv(l, { PATH: '/usr/bin:/bin', HOME: '/home/x', UNSET: undefined });
    expect(env.HOME).toBe('/home/x');
    expect('UNSET' in env).toBe(false);
    expect(env.PIP_TARGET).toBe(l.pip);
    expect(env.PIP_CACHE_DIR).toBe(l.pipCache);
    expect(env.PIP_DISABLE_PIP_VERSION_CHECK).toBe('1');
    expect(env.NPM_CONFIG_PREFIX).toBe(l.npmGlobal);
    expect(env.PYTHONPATH).toBe(l.pip);
    expect(env.PATH).toBe([l.npmBin, l.pipBin, l.bin, '/usr/bin', '/bin'].join(':'));
  });

  it('gives skill processes a PATH without Skilldock’s node_modules/.bin or npm’s node-gyp-bin, and none of the server’s variables', () => {
    const l = layout();
    const env = runtimeEnv(l, {
      PATH: [
        '/srv/skilldock/node_modules/.bin',
        '/srv/node_modules/.bin',
        '/node_modules/.bin',
        '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
        'relative/bin',
        '/usr/local/bin',
        '/usr/bin',
      ].join(':'),
      LANG: 'C.UTF-8',
      NEXTAUTH_SECRET: 'n'.repeat(40),
      SKILLDOCK_SECRET_KEY: 'k'.repeat(43),
      SKILLDOCK_SESSION_SECRET: 's'.repeat(40),
      DATABASE_URL: 'postgres://u:p@db/skilldock',
      npm_config_prefix: '/srv/skilldock',
    });
    expect(env.PATH).toBe([l.npmBin, l.pipBin, l.bin, '/usr/local/bin', '/usr/bin'].join(':'));
    expect(env.LANG).toBe('C.UTF-8');
    for (const k of ['NEXTAUTH_SECRET', 'SKILLDOCK_SECRET_KEY', 'SKILLDOCK_SESSION_SECRET', 'DATABASE_URL', 'npm_config_prefix'])
      expect(env, k).not.toHaveProperty(k);
  });

  it('runs Skilldock’s own tools with the host PATH only, never the runtime dir’s bins', () => {
    const l = layout();
    const env = toolEnv(l, { PATH: `${l.bin}:${l.pipBin}:/usr/local/bin:/usr/bin`, HOME: '/home/x' });
    expect(env.PATH).toBe('/usr/local/bin:/usr/bin');
    expect(env.HOME).toBe('/home/x');
  });

  it('puts the runtime dir first, keeps existing entries, drops duplicates and empty entries', () => {
    const l = layout();
    const env = runtimeEnv(l, {
      PATH: `/usr/bin::${l.bin}:/bin:/usr/bin:`,
      PYTHONPATH: `/opt/py::${l.pip}:/opt/py`,
      NODE_PATH: '/opt/node_modules:',
    });
    expect(env.PATH).toBe([l.npmBin, l.pipBin, l.bin, '/usr/bin', '/bin'].join(':'));
    expect(env.PYTHONPATH).toBe([l.pip, '/opt/py'].join(':'));
    expect(env.NODE_PATH.split(':')[0]).toBe(l.npmModules);
    expect(env.NODE_PATH.split(':').at(-1)).toBe('/opt/node_modules');
    for (const v of [env.PATH, env.PYTHONPATH, env.NODE_PATH]) expect(v.split(':')).not.toContain('');
  });

  it('adds the global node_modules of the node found on PATH', () => {
    const l = layout();
    const env = runtimeEnv(l, { PATH: `${path.join(fakePrefix, 'bin')}:/usr/bin` });
    expect(env.NODE_PATH).toBe([l.npmModules, path.join(fakePrefix, 'lib', 'node_modules')].join(':'));
  });

  it('falls back to the node running Skilldock and a standard PATH when the base has none', () => {
    const env = runtimeEnv(layout(), {});
    const global = path.join(path.dirname(path.dirname(fs.realpathSync(process.execPath))), 'lib', 'node_modules');
    if (fs.existsSync(global)) expect(env.NODE_PATH.split(':')).toContain(global);
    expect(env.PATH.split(':')).toContain('/usr/bin');
    expect(systemNodeModules('')).toBe(fs.existsSync(global) ? global : undefined);
  });

  it('overrides values a base env sets for the managed variables', () => {
    const env = runtimeEnv(layout(), { PATH: '/bin', PIP_TARGET: '/elsewhere', NPM_CONFIG_PREFIX: '/usr' });
    expect(env.PIP_TARGET).toBe(layout().pip);
    expect(env.NPM_CONFIG_PREFIX).toBe(layout().npmGlobal);
  });

  it('describes each variable with its value and reason', () => {
    const l = layout();
    const base = { PATH: '/usr/bin:/bin' };
    const rows = describeRuntimeEnv(l, base);
    const env = runtimeEnv(l, base);
    expect(rows.map((r) => r.name).sort()).toEqual(
      ['NODE_PATH', 'NPM_CONFIG_PREFIX', 'PATH', 'PIP_CACHE_DIR', 'PIP_DISABLE_PIP_VERSION_CHECK', 'PIP_TARGET', 'PYTHONPATH'].sort(),
    );
    for (const r of rows) {
      expect(r.value).toBe(env[r.name]);
      expect(r.why.length).toBeGreaterThan(10);
    }
  });

  it('lets a real python3 import from the runtime pip dir and a real node require from npm-global', async () => {
    const l = ensureRuntimeDir(path.join(tmp, 'real'));
    fs.mkdirSync(path.join(l.pip, 'skilldock_probe'));
    fs.writeFileSync(path.join(l.pip, 'skilldock_probe', '__init__.py'), 'VALUE = 42\n');
    fs.mkdirSync(path.join(l.npmModules, 'skilldock-probe'));
    fs.writeFileSync(path.join(l.npmModules, 'skilldock-probe', 'index.js'), 'module.exports = 7;\n');
    const env = runtimeEnv(l);
    const python = which('python3', env.PATH);
    if (python) {
      const py = await runProcess(python, ['-c', 'import skilldock_probe; print(skilldock_probe.VALUE)'], { env, timeoutMs: 20_000 });
      expect(py.stdout.trim()).toBe('42');
    }
    const js = await runProcess(process.execPath, ['-e', 'console.log(require("skilldock-probe"))'], { env, timeoutMs: 20_000 });
    expect(js.stdout.trim()).toBe('7');
  });
});

describe('which', () => {
  it('finds executables on a PATH list without a shell', () => {
    expect(which('sh', '/usr/bin:/bin')).toMatch(/\/sh$/);
    expect(which('definitely-not-a-program-xyz', '/usr/bin:/bin')).toBeNull();
    expect(which('node', path.join(fakePrefix, 'bin'))).toBe(path.join(fakePrefix, 'bin', 'node'));
  });

  it('ignores non-executable files, folders and relative PATH entries', () => {
    const dir = path.join(tmp, 'which');
    fs.mkdirSync(path.join(dir, 'folder'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'plain'), 'x', { mode: 0o644 });
    expect(which('plain', dir)).toBeNull();
    expect(which('folder', dir)).toBeNull();
    expect(which('node', path.relative(process.cwd(), path.join(fakePrefix, 'bin')))).toBeNull();
  });

  it('splits and joins PATH lists', () => {
    expect(splitPathList('a::b:')).toEqual(['a', 'b']);
    expect(splitPathList(undefined)).toEqual([]);
    expect(joinPathList(['a', undefined, '', 'b', 'a'])).toBe('a:b');
  });
});
