import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTempName } from '../../../core/atomic-fs';
import { runProcess } from '../../../core/process';
import { runtimeLayout } from '../../dir';
import { parsePackageSpec } from '../../spec';
import type { ManagerContext } from '../../types';
import { withSystemLock } from './exec';
import { parseApkInstalled, parseApkVersionOutput, parseAptPolicy, parseDpkgStatus } from './parsers';
import { writeSystemRecord } from './record';
import {
  detectSystemManager,
  readSystemRecord,
  resolveSystemPackage,
  systemInstall,
  systemList,
  systemOutdated,
  systemUninstall,
  systemUpdate,
} from './system';

const DPKG_SAMPLE = `Package: bash
Essential: yes
Status: install ok installed
Priority: required
Architecture: amd64
Version: 5.2.15-2+b8
Description: GNU Bourne Again SHell
 Bash is an sh-compatible command language interpreter.
 .
 Bash can be configured to be POSIX-conformant by default.

Package: oldconf
Status: deinstall ok config-files
Architecture: all
Version: 1.0-1
Description: removed, only config left

Package: libc6
Status: hold ok installed
Multi-Arch: same
Architecture: i386
Version: 2.36-9+deb12u10
Description: GNU C Library: Shared libraries

Package: broken
Status: install reinstreq half-installed
Architecture: amd64
Version: 0.1
Description: half installed

Package: hello
Status: install ok installed
Architecture: amd64
Version: 2.10-3
Description: example package based on GNU hello
Homepage: https://www.gnu.org/software/hello/
`;

const APK_SAMPLE = `C:Q1abc=
P:musl
V:1.2.5-r9
A:x86_64
S:408000
T:the musl c library (libc) implementation
U:https://musl.libc.org/
L:MIT
F:lib
R:ld-musl-x86_64.so.1

C:Q1def=
P:py3-pip
V:24.3.1-r0
A:noarch
T:Tool for installing and managing Python packages
`;

describe('system package parsers', () => {
  it('parses dpkg status: installed and held packages only, first description line', () => {
    expect(parseDpkgStatus(DPKG_SAMPLE)).toEqual([
      { package: 'bash', version: '5.2.15-2+b8', arch: 'amd64', summary: 'GNU Bourne Again SHell' },
      { package: 'libc6', version: '2.36-9+deb12u10', arch: 'i386', summary: 'GNU C Library: Shared libraries' },
      { package: 'hello', version: '2.10-3', arch: 'amd64', summary: 'example package based on GNU hello' },
    ]);
    expect(parseDpkgStatus('')).toEqual([]);
    expect(parseDpkgStatus(DPKG_SAMPLE.replace(/\n/g, '\r\n').replace(/\r\n\r\n/g, '\n\n'))).toHaveLength(3);
  });

  it('parses the apk installed db', () => {
    expect(parseApkInstalled(APK_SAMPLE)).toEqual([
      { package: 'musl', version: '1.2.5-r9', arch: 'x86_64', summary: 'the musl c library (libc) implementation' },
      { package: 'py3-pip', version: '24.3.1-r0', arch: 'noarch', summary: 'Tool for installing and managing Python packages' },
    ]);
  });

  it('parses apt-cache policy and apk version output', () => {
    const policy = parseAptPolicy(
      'hello:\n  Installed: (none)\n  Candidate: 2.10-3\n  Version table:\n     2.10-3 500\nbash:\n  Installed: 5.2.15-2+b8\n  Candidate: 5.2.15-2+b13\n',
    );
    expect(Object.fromEntries(policy)).toEqual({ hello: { candidate: '2.10-3' }, bash: { installed: '5.2.15-2+b8', candidate: '5.2.15-2+b13' } });
    expect(
      parseApkVersionOutput(
        'Installed:                                Available:\nmusl-1.2.4-r1                           < 1.2.4-r2\npy3-pip-23.1-r0 < 24.0-r0\n',
      ),
    ).toEqual([
      { package: 'musl', current: '1.2.4-r1', latest: '1.2.4-r2' },
      { package: 'py3-pip', current: '23.1-r0', latest: '24.0-r0' },
    ]);
  });

  it('resolves aliases per manager', () => {
    expect(resolveSystemPackage('apt', 'github-cli')).toBe('gh');
    expect(resolveSystemPackage('apt', 'golang')).toBe('golang-go');
    expect(resolveSystemPackage('apk', 'pip3')).toBe('py3-pip');
    expect(resolveSystemPackage('apk', 'go')).toBe('go');
    expect(() => resolveSystemPackage('apt', 'Lib_X')).toThrow(/not a valid apt package name/);
  });

  it('runs operations of one manager one at a time', async () => {
    const events: string[] = [];
    const op = (id: string, ms: number, fail = false) =>
      withSystemLock('apk', async () => {
        events.push(`start ${id}`);
        await new Promise((r) => setTimeout(r, ms));
        events.push(`end ${id}`);
        if (fail) throw new Error(id);
      });
    await Promise.allSettled([op('a', 30, true), op('b', 5), op('c', 1)]);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});

const isRoot = process.getuid?.() === 0;
const isDebian = detectSystemManager() === 'apt';
const skipReason = !isRoot ? 'needs root (apt-get installs for real)' : !isDebian ? 'needs Debian/Ubuntu with apt-get' : '';
if (skipReason) console.warn(`system.mgr.test: skipping the real apt tests: ${skipReason}`);

describe.skipIf(!!skipReason)('apt (real apt-get, Debian archive)', { timeout: 300_000 }, () => {
  let root: string;
  const lines: string[] = [];
  // aptAutoUpdate off: this host's sources also name non-Debian hosts, which tests must not contact.
  const ctx = (): ManagerContext => ({ runtimeDir: root, log: (l) => lines.push(l), settings: { actor: 'test-admin', aptAutoUpdate: 'off' } });
  const dpkgHas = async (pkg: string) => (await runProcess('dpkg-query', ['-W', '-f', '${Status}', pkg])).stdout.includes('ok installed');

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-apt-'));
    if (await dpkgHas('hello')) await runProcess('/usr/bin/apt-get', ['remove', '-y', 'hello'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('installs hello, records it as installed here, and it runs', async () => {
    const pkg = await systemInstall(ctx(), parsePackageSpec('hello'));
    expect(pkg).toMatchObject({ manager: 'apt', name: 'hello', managed: true, version: expect.stringMatching(/^\d[\w.+~:]*-[\w.+~]+$/) });
    const record = await readSystemRecord(root);
    expect(record).toEqual([
      { name: 'hello', package: 'hello', manager: 'apt', version: pkg.version, installedAt: expect.any(String), installedBy: 'test-admin' },
    ]);
    expect(Date.parse(record[0].installedAt)).toBeGreaterThan(Date.now() - 600_000);
    expect(fs.readdirSync(runtimeLayout(root).root).filter(isTempName)).toEqual([]);
    const run = await runProcess('/usr/bin/hello', [], { timeoutMs: 10_000, env: { ...process.env, LC_ALL: 'C' } });
    expect(run.stdout.trim()).toBe('Hello, world!');
  });

  it('lists dpkg packages: hello managed, bash a base package', async () => {
    const list = await systemList(ctx());
    expect(list.length).toBeGreaterThan(50);
    expect(list.find((p) => p.name === 'hello')).toMatchObject({ managed: true, manager: 'apt' });
    expect(list.find((p) => p.name === 'bash')).toMatchObject({ managed: false, version: expect.stringMatching(/^\d/), summary: expect.any(String) });
  });

  it('checks recorded packages for updates with apt-cache policy and dpkg ordering', async () => {
    expect(await systemOutdated(ctx())).toEqual({ outdated: [], errors: [] });
    // A record that claims bash, in a separate runtime dir: the check reads policy only, it changes nothing.
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-apt-rec-'));
    try {
      await writeSystemRecord(other, [{ name: 'bash', package: 'bash', manager: 'apt', version: '', installedAt: '', installedBy: 'x' }]);
      const policy = parseAptPolicy((await runProcess('apt-cache', ['policy', 'bash'], { env: { ...process.env, LC_ALL: 'C' } })).stdout).get('bash')!;
      const newer = (await runProcess('dpkg', ['--compare-versions', policy.candidate!, 'gt', policy.installed!])).code === 0;
      const { outdated } = await systemOutdated({ runtimeDir: other });
      expect(outdated).toEqual(newer ? [{ manager: 'apt', name: 'bash', current: policy.installed, latest: policy.candidate }] : []);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses to remove or update a base package without running apt', async () => {
    lines.length = 0;
    await expect(systemUninstall(ctx(), 'bash')).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringContaining('bash came with the system'),
    });
    await expect(systemUpdate(ctx(), 'bash')).rejects.toMatchObject({ code: 'invalid_state' });
    expect(lines.filter((l) => l.startsWith('$ '))).toEqual([]);
    expect(await dpkgHas('bash')).toBe(true);
  });

  it('installing a base package again is a no-op that records nothing', async () => {
    const pkg = await systemInstall(ctx(), parsePackageSpec('bash'));
    expect(pkg).toMatchObject({ name: 'bash', managed: false });
    expect((await readSystemRecord(root)).map((e) => e.name)).toEqual(['hello']);
  });

  it('updates a recorded package in place', async () => {
    const pkg = await systemUpdate(ctx(), 'hello');
    expect(pkg).toMatchObject({ name: 'hello', managed: true });
  });

  it('uninstalls hello: gone from dpkg and from the record', async () => {
    await systemUninstall(ctx(), 'hello');
    expect(await dpkgHas('hello')).toBe(false);
    expect(fs.existsSync('/usr/bin/hello')).toBe(false);
    expect(await readSystemRecord(root)).toEqual([]);
    expect((await systemList(ctx())).find((p) => p.name === 'hello')).toBeUndefined();
    await expect(systemUninstall(ctx(), 'hello')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('an unknown package fails with class not_found and records nothing', async () => {
    const err = await systemInstall(ctx(), parsePackageSpec('skilldock-no-such-package-4f2a')).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'AppError', code: 'not_found', details: { manager: 'apt', class: 'not_found' } });
    expect(await readSystemRecord(root)).toEqual([]);
  });

  it('rejects apk: specs on an apt host', async () => {
    await expect(systemInstall(ctx(), parsePackageSpec('apk:hello'))).rejects.toMatchObject({ code: 'validation' });
  });
});
