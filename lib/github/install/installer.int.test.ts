// GitHub-release installs end to end on real parts: a loopback GitHub serving release JSON and real
// tar.gz archives of real ELF programs, the database (PGlite and PostgreSQL), real extraction,
// ELF checks, a real smoke test, and the symlink swap in a real runtime dir.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITHUB_SETTINGS_DEFAULTS } from '@/lib/settings/github-settings';
import { FakeGithub, sha256, tarGzWith } from '@/test/helpers/github-server';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { type GithubContext, getGithubPackage, installGithubPackage, rollbackGithubPackage, uninstallGithubPackage } from './installer';
import { recoverGithubInstalls } from './recovery';

let t: TestServices;
let gh: FakeGithub;
let runtimeDir: string;
const TRUE = fs.readFileSync('/usr/bin/true');
const FALSE = fs.readFileSync('/usr/bin/false');
const lines: string[] = [];
const REPO = 'acme/hello-tool';

const archive = (tag: string, binary: Buffer, extra = '') =>
  tarGzWith(
    `hello-tool_${tag}_linux_amd64`,
    { 'hello-tool': binary, 'README.md': `# hello-tool ${tag}\n${extra}`, 'install.sh': '#!/bin/sh\necho install\n' },
    { exec: ['hello-tool', 'install.sh'] },
  );

beforeAll(async () => {
  runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-gh-runtime-'));
  gh = await new FakeGithub().start();
  const v1 = archive('v1.0.0', TRUE);
  const v2 = archive('v2.0.0', TRUE);
  const bad = archive('v3.0.0', FALSE);
  const tampered = archive('v4.0.0', TRUE);
  gh.releases.set(REPO, [
    { tag: 'v3.0.0', prerelease: true, assets: [{ name: 'hello-tool_3.0.0_linux_amd64.tar.gz', data: bad, digest: true }] },
    {
      tag: 'v2.0.0',
      assets: [
        { name: 'hello-tool_2.0.0_linux_amd64.tar.gz', data: v2, digest: true },
        { name: 'hello-tool_2.0.0_darwin_arm64.tar.gz', data: Buffer.from('not for us') },
        { name: 'hello-tool_2.0.0_linux_amd64.deb', data: Buffer.from('deb') },
      ],
    },
    {
      tag: 'v1.0.0',
      assets: [
        { name: 'hello-tool_1.0.0_linux_amd64.tar.gz', data: v1 },
        {
          name: 'checksums.txt',
          data: Buffer.from(`${sha256(v1)}  hello-tool_1.0.0_linux_amd64.tar.gz\n${'0'.repeat(64)}  hello-tool_1.0.0_darwin_arm64.tar.gz\n`),
        },
      ],
    },
    {
      tag: 'v4.0.0',
      assets: [
        { name: 'hello-tool_4.0.0_linux_amd64.tar.gz', data: tampered },
        { name: 'checksums.txt', data: Buffer.from(`${'a'.repeat(64)}  hello-tool_4.0.0_linux_amd64.tar.gz\n`) },
      ],
    },
  ]);
  t = await startTestServices({ worker: false });
}, 60_000);
afterAll(async () => {
  await t?.stop();
  await gh?.stop();
  fs.rmSync(runtimeDir, { recursive: true, force: true });
});

const ctx = (over: Partial<GithubContext['settings']> = {}): GithubContext => ({
  db: t.services.database.db,
  runtimeDir,
  settings: { ...GITHUB_SETTINGS_DEFAULTS, apiBaseUrl: gh.base, token: 'ghp_test_token', ...over },
  userAgent: 'skilldock-test',
  actor: 'admin@example.com',
  target: { os: 'linux', arch: 'amd64', libc: 'glibc' },
  log: (l) => lines.push(l),
});
const bin = () => path.join(runtimeDir, 'bin', 'hello-tool');
const current = () => fs.readlinkSync(path.join(runtimeDir, 'github', 'hello-tool', 'current'));
const versions = () =>
  fs
    .readdirSync(path.join(runtimeDir, 'github', 'hello-tool'))
    .filter((d) => !d.startsWith('current'))
    .sort();

describe('GitHub-release installs', () => {
  it('installs the latest stable release: asset chosen, digest verified, binary validated, smoke-tested, linked on PATH', async () => {
    const m = await installGithubPackage(ctx(), { repo: REPO });
    expect(m).toMatchObject({
      name: 'hello-tool',
      tag: 'v2.0.0',
      assetName: 'hello-tool_2.0.0_linux_amd64.tar.gz',
      checksumSource: 'api_digest',
      installedBy: 'admin@example.com',
    });
    expect(m.binaries).toEqual([expect.objectContaining({ name: 'hello-tool', libc: 'glibc', machine: 'amd64', interp: '/lib64/ld-linux-x86-64.so.2' })]);
    expect(m.smokeOutput).toMatch(/^true \(GNU coreutils\)/);
    expect(lines.some((l) => /Skipped .*install\.sh/.test(l))).toBe(true);
    expect(fs.readlinkSync(bin())).toBe('../github/hello-tool/current/hello-tool');
    expect(execFileSync(bin(), ['--version']).toString()).toMatch(/GNU coreutils/);
    expect(current()).toBe('v2.0.0');
    const row = await getGithubPackage(t.services.database.db, 'hello-tool');
    expect(row).toMatchObject({ repo: REPO, tag: 'v2.0.0', sha256: m.sha256, checksumSource: 'api_digest' });
    // The download went to the public URL without the token; the API calls carried it.
    expect(gh.requests.filter((r) => r.path.includes('/releases/download/')).every((r) => r.auth === undefined)).toBe(true);
    expect(gh.requests.find((r) => r.path.endsWith('/releases/latest'))?.auth).toBe('Bearer ghp_test_token');
    expect(fs.readdirSync(path.join(runtimeDir, 'github', '.tmp'))).toEqual([]);
  });

  it('installs a tag verified by checksums.txt and keeps the previous version for rollback', async () => {
    const m = await installGithubPackage(ctx(), { repo: REPO, tag: 'v1.0.0' });
    expect(m).toMatchObject({ tag: 'v1.0.0', checksumSource: 'checksums_file' });
    expect(m.retained.map((r) => r.tag)).toEqual(['v2.0.0']);
    expect(current()).toBe('v1.0.0');
    expect(versions()).toEqual(['v1.0.0', 'v2.0.0']);
  });

  it('rolls back to the retained version with one switch', async () => {
    const m = await rollbackGithubPackage(ctx(), 'hello-tool', 'v2.0.0');
    expect(m.tag).toBe('v2.0.0');
    expect(current()).toBe('v2.0.0');
    expect(m.retained.map((r) => r.tag)).toEqual(['v1.0.0']);
    expect((await getGithubPackage(t.services.database.db, 'hello-tool'))?.tag).toBe('v2.0.0');
  });

  it('a version that fails its smoke test never goes live and leaves nothing behind', async () => {
    await expect(installGithubPackage(ctx(), { repo: REPO, tag: 'v3.0.0' })).rejects.toMatchObject({ code: 'smoke_test_failed', status: 422 });
    expect(current()).toBe('v2.0.0');
    expect(versions()).toEqual(['v1.0.0', 'v2.0.0']);
    expect(execFileSync(bin(), ['--version']).toString()).toMatch(/^true/);
  });

  it('a checksum mismatch is a hard failure: the asset extracted while it downloaded is never activated and leaves no files', async () => {
    const v4 = gh.releases.get(REPO)!.find((r) => r.tag === 'v4.0.0')!.assets[0];
    let release!: () => void;
    v4.gate = new Promise<void>((r) => {
      release = r;
    });
    const tmp = path.join(runtimeDir, 'github', '.tmp');
    try {
      const install = installGithubPackage(ctx(), { repo: REPO, tag: 'v4.0.0' });
      install.catch(() => undefined);
      // Half the asset has arrived and the download is held: extraction has already begun in scratch.
      await waitFor(async () => {
        const [scratch] = fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
        const x = scratch && path.join(tmp, scratch, 'x');
        return !!x && fs.existsSync(x) && fs.readdirSync(x).length > 0;
      }, 'entries extracted while the download is in flight');
      release();
      await expect(install).rejects.toMatchObject({ code: 'checksum_mismatch' });
    } finally {
      release();
      delete v4.gate;
    }
    expect(versions()).toEqual(['v1.0.0', 'v2.0.0']);
    expect(current()).toBe('v2.0.0');
    expect(fs.readlinkSync(bin())).toBe('../github/hello-tool/current/hello-tool');
    expect((await getGithubPackage(t.services.database.db, 'hello-tool'))?.tag).toBe('v2.0.0');
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('an asset replaced under the same tag is refused (digest changed)', async () => {
    const releases = gh.releases.get(REPO)!;
    const v1 = releases.find((r) => r.tag === 'v1.0.0')!;
    const original = v1.assets;
    const swapped = archive('v1.0.0', TRUE, 'swapped');
    v1.assets = [{ name: 'hello-tool_1.0.0_linux_amd64.tar.gz', data: swapped }];
    try {
      await expect(installGithubPackage(ctx(), { repo: REPO, tag: 'v1.0.0' })).rejects.toMatchObject({ code: 'digest_changed', status: 409 });
    } finally {
      v1.assets = original;
    }
  });

  it('refuses owners outside the allowlist, unknown tags, and bin/ names owned by something else', async () => {
    await expect(installGithubPackage(ctx({ allowedOwners: ['someone-else'] }), { repo: REPO })).rejects.toMatchObject({ code: 'not_allowed' });
    await expect(installGithubPackage(ctx(), { repo: REPO, tag: 'v9.9.9' })).rejects.toMatchObject({ code: 'release_not_found', status: 404 });
    const foreign = path.join(runtimeDir, 'bin', 'other-tool');
    gh.releases.set('acme/other-tool', [
      {
        tag: 'v1.0.0',
        assets: [{ name: 'other-tool-linux-amd64.tar.gz', data: tarGzWith('other', { 'other-tool': TRUE }, { exec: ['other-tool'] }), digest: true }],
      },
    ]);
    fs.writeFileSync(foreign, '#!/bin/sh\n', { mode: 0o755 });
    await expect(installGithubPackage(ctx(), { repo: 'acme/other-tool' })).rejects.toMatchObject({ code: 'binary_conflict' });
    expect(fs.readFileSync(foreign, 'utf8')).toBe('#!/bin/sh\n');
    const taken = await installGithubPackage(ctx(), { repo: 'acme/other-tool', takeover: true });
    expect(fs.readlinkSync(foreign)).toBe('../github/other-tool/current/other-tool');
    await uninstallGithubPackage(ctx(), taken.name);
  });

  it('recovers from a crash at any step: leftovers removed, links restored, the record rewritten from disk', async () => {
    const pkg = path.join(runtimeDir, 'github', 'hello-tool');
    fs.mkdirSync(path.join(runtimeDir, 'github', '.tmp', 'a6f1c0de-0000-4000-8000-000000000000', 'x'), { recursive: true });
    fs.symlinkSync('v1.0.0', path.join(pkg, 'current.2b7c0d1e-1111-4111-8111-111111111111'));
    fs.mkdirSync(path.join(pkg, 'v9.9.9'));
    fs.writeFileSync(path.join(pkg, 'v9.9.9', 'hello-tool'), 'half written');
    fs.rmSync(bin());
    fs.writeFileSync(path.join(runtimeDir, 'bin', 'jq.bak.1700000000'), 'old jq');
    fs.writeFileSync(path.join(runtimeDir, 'bin', 'jq.failed-1700000000'), 'broken jq');
    await t.services.database.rows(sql`update github_packages set version = 'v1.0.0', tag = 'v1.0.0' where name = 'hello-tool'`);

    const actions = await recoverGithubInstalls(t.services.database.db, runtimeDir);
    expect(actions.map((a) => a.action).sort()).toEqual([
      'record rewritten from disk: v2.0.0 is current',
      'removed a failed swap leftover',
      'removed a half-made current link',
      'removed an incomplete version folder',
      'removed an unfinished download/extraction',
      'restored a missing bin/ link',
      'restored from its .bak copy',
    ]);
    expect(fs.readdirSync(path.join(runtimeDir, 'github', '.tmp'))).toEqual([]);
    expect(versions()).toEqual(['v1.0.0', 'v2.0.0']);
    expect(execFileSync(bin(), ['--version']).toString()).toMatch(/^true/);
    expect(fs.readFileSync(path.join(runtimeDir, 'bin', 'jq'), 'utf8')).toBe('old jq');
    expect((await getGithubPackage(t.services.database.db, 'hello-tool'))?.tag).toBe('v2.0.0');
    // A second run finds nothing left to do.
    expect(await recoverGithubInstalls(t.services.database.db, runtimeDir)).toEqual([]);
    fs.rmSync(path.join(runtimeDir, 'bin', 'jq'));
  });

  it('installs a shell-script tool only when the package declares it with binaryPath', async () => {
    const script = '#!/bin/sh\necho "hello-script 1.0"\n';
    gh.releases.set('acme/hello-script', [
      {
        tag: 'v1.0',
        assets: [
          { name: 'hello-script-1.0.tar.gz', data: tarGzWith('hello-script-1.0', { 'hello-script': script }, { exec: ['hello-script'] }), digest: true },
        ],
      },
    ]);
    await expect(installGithubPackage(ctx(), { repo: 'acme/hello-script' })).rejects.toMatchObject({ code: 'no_binary' });
    const m = await installGithubPackage(ctx(), { repo: 'acme/hello-script', overrides: { binaryPath: 'hello-script' } });
    expect(m.binaries).toEqual([expect.objectContaining({ name: 'hello-script', libc: 'script', interp: '/bin/sh' })]);
    expect(m.smokeOutput).toBe('hello-script 1.0');
    expect(execFileSync(path.join(runtimeDir, 'bin', 'hello-script')).toString()).toBe('hello-script 1.0\n');
    await uninstallGithubPackage(ctx(), 'hello-script');
  });

  it('uninstalls: links, folders and the record are gone', async () => {
    await uninstallGithubPackage(ctx(), 'hello-tool');
    expect(fs.existsSync(bin())).toBe(false);
    expect(fs.existsSync(path.join(runtimeDir, 'github', 'hello-tool'))).toBe(false);
    expect(await getGithubPackage(t.services.database.db, 'hello-tool')).toBeNull();
    await expect(uninstallGithubPackage(ctx(), 'hello-tool')).rejects.toMatchObject({ code: 'release_not_found' });
  });
});
