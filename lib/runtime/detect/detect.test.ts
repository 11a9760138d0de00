import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../core/process';
import { which } from '../../core/which';
import { ensureRuntimeDir, type RuntimeLayout } from '../dir';
import { createRuntimeCache, type DetectOptions, detectRuntimes, type RuntimeReport } from './detect';
import { machineArch, parseOsRelease, readElfInterpreter } from './platform';

let tmp: string;
let layout: RuntimeLayout;
let report: RuntimeReport;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-detect-'));
  layout = ensureRuntimeDir(path.join(tmp, 'rt'));
  fs.writeFileSync(path.join(layout.bin, 'mytool'), '#!/bin/sh\necho "mytool version 1.2.3 (test build)"\n', { mode: 0o755 });
  fs.writeFileSync(path.join(layout.bin, 'slowtool'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
  report = await detectRuntimes({ layout, extraBinaries: ['mytool', 'slowtool', 'no-such-binary-xyz', 'bad name;rm'], timeoutMs: 3000 });
}, 60_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('detectRuntimes on this machine', () => {
  it('says where it ran and for which runtime dir', () => {
    expect(report.where).toBe('host');
    expect(report.hostname).toBe(os.hostname());
    expect(report.runtimeDir).toBe(layout.root);
    expect(Date.parse(report.checkedAt)).not.toBeNaN();
  });

  it('reports node as the running interpreter', () => {
    expect(report.runtimes.node).toMatchObject({ available: true, path: process.execPath, version: process.versions.node, managed: false });
  });

  it('reports python3 and pip with the versions the interpreter itself prints', async () => {
    const python = which('python3', process.env.PATH);
    expect(python).not.toBeNull();
    const real = await runProcess(python!, ['-c', 'import sys,platform;print(platform.python_version());print(sys.executable)'], { timeoutMs: 20_000 });
    const [version, executable] = real.stdout.trim().split('\n');
    expect(report.runtimes.python3).toMatchObject({ available: true, path: python, version, executable, managed: false });
    expect(typeof report.runtimes.python3.externallyManaged).toBe('boolean');
    const stdlib = report.runtimes.python3.stdlib!;
    expect(fs.existsSync(stdlib)).toBe(true);
    expect(report.runtimes.python3.externallyManaged).toBe(fs.existsSync(path.join(stdlib, 'EXTERNALLY-MANAGED')));
    const pip = await runProcess(python!, ['-c', 'import pip;print(pip.__version__)'], { timeoutMs: 20_000 });
    expect(report.runtimes.pip, JSON.stringify(report.runtimes.pip)).toMatchObject({ available: true, version: pip.stdout.trim() });
    expect(report.managers.pip.ready).toBe(true);
  });

  it('reports npm with its real version', async () => {
    const npm = which('npm', process.env.PATH)!;
    const real = await runProcess(npm, ['--version'], { timeoutMs: 20_000, env: { ...process.env, NPM_CONFIG_UPDATE_NOTIFIER: 'false' } });
    expect(report.runtimes.npm).toMatchObject({ available: true, path: npm, version: real.stdout.trim() });
    expect(report.managers.npm.ready).toBe(true);
  });

  it('reports the system package manager from the host files', () => {
    const osRelease = parseOsRelease(fs.readFileSync('/etc/os-release', 'utf8'));
    const expected = fs.existsSync('/etc/alpine-release') ? 'apk' : which('apt-get', process.env.PATH) ? 'apt' : null;
    expect(report.system.manager).toBe(expected);
    expect(report.system.osId).toBe(osRelease.ID);
    expect(report.system.root).toBe(process.getuid!() === 0);
    if (report.system.root) expect(report.managers.system).toEqual({ ready: true });
    else expect(report.managers.system.ready).toBe(report.system.sudo);
  });

  it('reports arch and libc from the node binary', async () => {
    expect(report.platform.arch).toBe(machineArch());
    expect(['x86_64', 'aarch64']).toContain(report.platform.arch);
    const loader = readElfInterpreter(process.execPath);
    expect(report.platform.loader).toBe(loader ?? undefined);
    const getconf = await runProcess('getconf', ['GNU_LIBC_VERSION'], { timeoutMs: 10_000 }).catch(() => null);
    if (getconf?.code === 0) {
      expect(report.platform.libc).toBe('glibc');
      expect(`glibc ${report.platform.libcVersion}`).toBe(getconf.stdout.trim());
    } else {
      expect(report.platform.libc).toBe('musl');
    }
  });

  it('reports the GitHub bin dir and the github manager', () => {
    expect(report.runtimeBin).toEqual({ path: layout.bin, exists: true, onServicePath: (process.env.PATH ?? '').split(':').includes(layout.bin) });
    expect(report.managers.github.ready).toBe(true);
  });

  it('reports each binary with path and version, or unavailable with a reason', async () => {
    const byName = Object.fromEntries(report.binaries.map((b) => [b.name, b]));
    for (const name of ['git', 'curl', 'jq', 'ffprobe', 'pdfinfo', 'pandoc', 'gh', 'uv', 'docker']) {
      const found = which(name, process.env.PATH);
      expect(byName[name]?.available, name).toBe(!!found);
      if (found) expect(byName[name].path).toBe(found);
      else expect(byName[name].reason).toMatch(/was not found on PATH/);
    }
    if (byName.git.available) {
      const git = await runProcess('git', ['--version'], { timeoutMs: 10_000 });
      expect(git.stdout).toContain(byName.git.version);
    }
    expect(byName['no-such-binary-xyz']).toEqual({
      name: 'no-such-binary-xyz',
      available: false,
      reason: expect.stringMatching(/no-such-binary-xyz was not found on PATH/),
    });
    expect(byName['bad name;rm']).toMatchObject({ available: false, reason: 'not a valid program name' });
  });

  it('finds binaries in the runtime dir and marks them managed', () => {
    const tool = report.binaries.find((b) => b.name === 'mytool');
    expect(tool).toEqual({ name: 'mytool', available: true, path: path.join(layout.bin, 'mytool'), managed: true, version: '1.2.3' });
  });

  it('a hanging --version costs one timeout, not the report', () => {
    const slow = report.binaries.find((b) => b.name === 'slowtool')!;
    expect(slow.available).toBe(true);
    expect(slow.version).toBeUndefined();
    expect(slow.reason).toMatch(/timed out after 3000 ms/);
    expect(report.durationMs).toBeLessThan(20_000);
  });
});

describe('detectRuntimes with nothing on PATH', () => {
  it('reports every manager not ready with a reason and a hint', async () => {
    const empty = path.join(tmp, 'empty-path');
    fs.mkdirSync(empty);
    const r = await detectRuntimes({ layout, env: { PATH: empty }, binaries: ['git'], timeoutMs: 3000 });
    expect(r.runtimes.python3).toEqual({ name: 'python3', available: false, reason: 'python3 was not found on PATH' });
    expect(r.runtimes.pip.available).toBe(false);
    expect(r.runtimes.npm.available).toBe(false);
    expect(r.runtimes.node.available).toBe(true);
    expect(r.runtimes.node.reason).toMatch(/not on PATH/);
    expect(r.system.manager).toBeNull();
    expect(r.binaries).toEqual([{ name: 'git', available: false, reason: expect.stringMatching(/git was not found on PATH/) }]);
    for (const m of ['pip', 'npm', 'system'] as const) {
      expect(r.managers[m].ready, m).toBe(false);
      expect(r.managers[m].reason, m).toBeTruthy();
      expect(r.managers[m].hint, m).toBeTruthy();
    }
    expect(r.managers.github.ready).toBe(true);
    expect(r.platform.libc).not.toBe('unknown');
  }, 30_000);
});

describe('createRuntimeCache', () => {
  function counting(): { calls: () => number; opts: { detect: (o: DetectOptions) => Promise<RuntimeReport> } } {
    let n = 0;
    // A copy of the real report per detection, so the cache logic is tested without re-probing each time.
    return {
      calls: () => n,
      opts: {
        detect: async (o) => {
          n++;
          return { ...report, runtimeDir: o.layout.root };
        },
      },
    };
  }

  it('runs the real detection through the cache', async () => {
    const cache = createRuntimeCache(60_000, { binaries: [] });
    const r = await cache.get(layout);
    expect(r.binaries).toEqual([]);
    expect(await cache.get(layout)).toBe(r);
  }, 60_000);

  it('keeps one entry per runtime dir', async () => {
    const c = counting();
    const cache = createRuntimeCache(60_000, c.opts);
    const other = ensureRuntimeDir(path.join(tmp, 'other'));
    expect((await cache.get(layout)).runtimeDir).toBe(layout.root);
    expect((await cache.get(other)).runtimeDir).toBe(other.root);
    await cache.get(layout);
    expect(c.calls()).toBe(2);
  });

  it('serves one report per runtime dir until invalidated', async () => {
    const c = counting();
    const cache = createRuntimeCache(60_000, c.opts);
    const [a, b] = await Promise.all([cache.get(layout), cache.get(layout)]);
    expect(a).toBe(b);
    expect(await cache.get(layout)).toBe(a);
    expect(c.calls()).toBe(1);
    cache.invalidate();
    const fresh = await cache.get(layout);
    expect(fresh).not.toBe(a);
    expect(c.calls()).toBe(2);
  }, 60_000);

  it('expires after ttl', async () => {
    let now = 1000;
    const c = counting();
    const cache = createRuntimeCache(5000, { ...c.opts, now: () => now });
    await cache.get(layout);
    now += 4999;
    await cache.get(layout);
    expect(c.calls()).toBe(1);
    now += 1;
    await cache.get(layout);
    expect(c.calls()).toBe(2);
  }, 60_000);

  it('does not cache a failed detection', async () => {
    let n = 0;
    const cache = createRuntimeCache(60_000, {
      detect: async (o) => {
        n++;
        if (n === 1) throw new Error('probe crashed');
        return { ...report, runtimeDir: o.layout.root };
      },
    });
    await expect(cache.get(layout)).rejects.toThrow('probe crashed');
    await expect(cache.get(layout)).resolves.toMatchObject({ where: 'host' });
    expect(n).toBe(2);
  }, 60_000);
});

describe('Skilldock’s own tools', () => {
  it('resolves python3 and npm from the host PATH even when the runtime dir holds programs of those names', async () => {
    const shimmed = ensureRuntimeDir(path.join(tmp, 'shimmed'));
    const ran = path.join(tmp, 'shim-ran');
    const shim = `#!/bin/sh\necho "$0" >> '${ran}'\necho "Python 9.9.9"\n`;
    for (const dir of [shimmed.bin, shimmed.pipBin, shimmed.npmBin]) {
      fs.mkdirSync(dir, { recursive: true });
      for (const name of ['python3', 'npm']) fs.writeFileSync(path.join(dir, name), shim, { mode: 0o755 });
    }
    // Even with the runtime bin on the service PATH, as an operator may set it.
    const r = await detectRuntimes({ layout: shimmed, env: { ...process.env, PATH: `${shimmed.bin}:${process.env.PATH}` }, binaries: [], timeoutMs: 5000 });
    expect(r.runtimes.python3).toMatchObject({ available: true, path: which('python3', process.env.PATH), managed: false });
    expect(r.runtimes.npm).toMatchObject({ available: true, path: which('npm', process.env.PATH), managed: false });
    expect(fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8') : '').toBe('');
  }, 60_000);
});
