// GitHub-release install faults on real parts: real ELF programs compiled by the test (dynamic glibc,
// static, dynamic musl, aarch64), real tar.gz archives, downloads redirected (302) from the loopback
// API host to a second loopback host name, the database (PGlite and PostgreSQL), the real smoke test
// and symlink swap. Every fault must leave v1 current, runnable, and nothing behind.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITHUB_SETTINGS_DEFAULTS } from '@/lib/settings/github-settings';
import { buildHello, cleanupElfBuilds, EXPECTED_INTERP } from '@/test/helpers/elf-builds';
import { type FakeAsset, FakeGithub, type FakeRelease, sha256, tarGzWith } from '@/test/helpers/github-server';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import type { HostTarget } from '../assets/target';
import { type GithubContext, getGithubPackage, installGithubPackage } from './installer';

const REPO = 'acme/hello-tool';
const TOKEN = 'ghp_fault_test_token';
const GLIBC: HostTarget = { os: 'linux', arch: 'amd64', libc: 'glibc' };
const MUSL: HostTarget = { os: 'linux', arch: 'amd64', libc: 'musl' };
/** A musl loader path that exists on no machine: a musl build for a host without Debian's `musl` package. */
const ABSENT_MUSL_LOADER = '/opt/skilldock-absent/lib/ld-musl-x86_64.so.1';

let t: TestServices;
let gh: FakeGithub;
let runtimeDir: string;
let tarWork: string;
const lines: string[] = [];

/** Writes a tar.gz with Python's tarfile, which keeps hostile names (`../x`) and links exactly as given. */
const PY_TAR = `
import io, json, sys, tarfile
spec = json.loads(sys.argv[1])
with tarfile.open(spec["out"], "w:gz", format=tarfile.GNU_FORMAT) as t:
    for e in spec["entries"]:
        ti = tarfile.TarInfo(e["name"])
        ti.mtime = 1700000000
        ti.mode = e.get("mode", 0o644)
        if e["type"] == "file":
            data = open(e["from"], "rb").read() if "from" in e else e.get("text", "").encode()
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
        elif e["type"] == "symlink":
            ti.type = tarfile.SYMTYPE
            ti.linkname = e["target"]
            t.addfile(ti)
        else:
            raise SystemExit("unknown entry type " + e["type"])
`;
type PyEntry = { name: string; type: 'file'; from?: string; text?: string; mode?: number } | { name: string; type: 'symlink'; target: string };
function pythonTar(entries: PyEntry[]): Buffer {
  const out = path.join(tarWork, `t${fs.readdirSync(tarWork).length}.tar.gz`);
  execFileSync('python3', ['-c', PY_TAR, JSON.stringify({ out, entries })], { stdio: ['ignore', 'pipe', 'pipe'] });
  return fs.readFileSync(out);
}

const assetName = (v: string) => `hello-tool_${v}_linux_amd64.tar.gz`;
const dirName = (v: string) => `hello-tool_${v}_linux_amd64`;
/** The usual archive: `<dir>/hello-tool` (+x) and a README, made by the real tar. */
const archive = (v: string, binary: string | Buffer) =>
  tarGzWith(
    dirName(v),
    { 'hello-tool': typeof binary === 'string' ? fs.readFileSync(binary) : binary, 'README.md': `# hello-tool ${v}\n` },
    { exec: ['hello-tool'] },
  );
const release = (tag: string, data: Buffer, extra: Partial<FakeAsset> = {}, more: FakeAsset[] = []): FakeRelease => ({
  tag,
  assets: [{ name: assetName(tag.slice(1)), data, digest: true, ...extra }, ...more],
});

beforeAll(async () => {
  runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-gh-faults-'));
  tarWork = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-gh-faults-tar-'));
  gh = await new FakeGithub({ downloadHost: 'localhost' }).start();

  const v1 = archive('1.0.0', buildHello('glibc', { version: '1.0.0' }));
  const badSum = archive('2.0.0', buildHello('glibc', { version: '2.0.0' }));
  const script = tarGzWith(
    dirName('2.0.3'),
    { 'hello-tool': '#!/bin/sh\necho hello-tool 2.0.3\n', 'install.sh': '#!/bin/sh\necho install\n', 'README.md': 'no binary here\n' },
    { exec: ['hello-tool', 'install.sh'] },
  );
  const glibc205 = buildHello('glibc', { version: '2.0.5' });
  gh.releases.set(REPO, [
    {
      tag: 'v1.0.0',
      assets: [
        { name: assetName('1.0.0'), data: v1 },
        { name: 'checksums.txt', data: Buffer.from(`${sha256(v1)}  ${assetName('1.0.0')}\n`) },
      ],
    },
    {
      tag: 'v2.0.0',
      assets: [
        { name: assetName('2.0.0'), data: badSum },
        { name: 'checksums.txt', data: Buffer.from(`${sha256(Buffer.from('something else'))}  ${assetName('2.0.0')}\n`) },
      ],
    },
    release('v2.0.1', archive('2.0.1', buildHello('glibc', { version: '2.0.1' })), { fault: 'short-body' }),
    release('v2.0.2', archive('2.0.2', buildHello('glibc', { version: '2.0.2' })), { fault: 'close-early' }),
    release('v2.0.3', script),
    release('v2.0.4', archive('2.0.4', buildHello('aarch64', { version: '2.0.4' }))),
    release('v2.0.5', archive('2.0.5', glibc205)),
    release('v2.0.6', archive('2.0.6', buildHello('musl', { version: '2.0.6', interp: ABSENT_MUSL_LOADER }))),
    release('v2.0.7', archive('2.0.7', buildHello('glibc', { version: '2.0.7', versionExit: 3 }))),
    release(
      'v2.0.8',
      pythonTar([
        { name: `${dirName('2.0.8')}/hello-tool`, type: 'file', from: buildHello('glibc', { version: '2.0.8' }), mode: 0o755 },
        { name: `${dirName('2.0.8')}/../../escaped-by-dotdot`, type: 'file', text: 'escaped\n', mode: 0o755 },
      ]),
    ),
    release(
      'v2.0.9',
      pythonTar([
        { name: `${dirName('2.0.9')}/README.md`, type: 'file', text: 'link\n' },
        { name: `${dirName('2.0.9')}/hello-tool`, type: 'symlink', target: '../../../../../../usr/bin/true' },
      ]),
    ),
    release(
      'v2.0.10',
      pythonTar([
        { name: `${dirName('2.0.10')}/README.md`, type: 'file', text: 'link\n' },
        { name: `${dirName('2.0.10')}/hello-tool`, type: 'symlink', target: '/usr/bin/true' },
      ]),
    ),
    release('v3.0.0', archive('3.0.0', buildHello('glibc', { version: '3.0.0' }))),
    // Success paths, installed after every fault.
    release('v4.0.0', archive('4.0.0', buildHello('static', { version: '4.0.0' }))),
    release('v5.0.0', archive('5.0.0', buildHello('static', { version: '5.0.0' }))),
    release('v6.0.0', archive('6.0.0', buildHello('musl', { version: '6.0.0' }))),
    release('v7.0.0', archive('7.0.0', buildHello('glibc', { version: '7.0.0' })), { private: true }),
  ]);
  t = await startTestServices({ worker: false });
}, 180_000);
afterAll(async () => {
  await t?.stop();
  await gh?.stop();
  if (runtimeDir) fs.rmSync(runtimeDir, { recursive: true, force: true });
  if (tarWork) fs.rmSync(tarWork, { recursive: true, force: true });
  cleanupElfBuilds();
});

const ctx = (target: HostTarget = GLIBC): GithubContext => ({
  db: t.services.database.db,
  runtimeDir,
  settings: { ...GITHUB_SETTINGS_DEFAULTS, apiBaseUrl: gh.base, token: TOKEN, downloadHosts: ['localhost'] },
  userAgent: 'skilldock-test',
  actor: 'admin@example.com',
  target,
  log: (l) => lines.push(l),
});
const bin = () => path.join(runtimeDir, 'bin', 'hello-tool');
const pkgDir = () => path.join(runtimeDir, 'github', 'hello-tool');
const current = () => fs.readlinkSync(path.join(pkgDir(), 'current'));
const versions = () =>
  fs
    .readdirSync(pkgDir())
    .filter((d) => !d.startsWith('current'))
    .sort();
const scratchLeft = () => fs.readdirSync(path.join(runtimeDir, 'github', '.tmp'));
const runVersion = () => execFileSync(bin(), ['--version'], { encoding: 'utf8', timeout: 10_000 });
const downloadsOf = (name: string) => gh.requests.filter((r) => r.path.startsWith('/dl/') && r.path.includes(`/${encodeURIComponent(name)}?`));

/** Every file and link under a folder (relative paths). */
function walk(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? [path.relative(base, p) + '/', ...walk(p, base)] : [path.relative(base, p)];
  });
}

let treeAfterV1: string[] = [];

/** v1 is still current, runs, the record says v1, no scratch is left, no version folder was added. */
async function expectV1Intact(): Promise<void> {
  expect(current()).toBe('v1.0.0');
  expect(fs.readlinkSync(bin())).toBe('../github/hello-tool/current/hello-tool');
  expect(runVersion()).toBe('hello-tool 1.0.0\n');
  expect(scratchLeft()).toEqual([]);
  expect(versions()).toEqual(['v1.0.0']);
  expect((await getGithubPackage(t.services.database.db, 'hello-tool'))?.tag).toBe('v1.0.0');
  // Nothing else appeared anywhere in the runtime dir (an escaped entry, a half-made link).
  expect(walk(runtimeDir)).toEqual(treeAfterV1);
}

/** Attempts the update and returns the typed error it must fail with. */
async function failingUpdate(
  tag: string,
  target: HostTarget = GLIBC,
): Promise<{ code: string; status: number; message: string; details?: Record<string, unknown> }> {
  const err = await installGithubPackage(ctx(target), { repo: REPO, tag }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `the update to ${tag} should have failed`).not.toBeNull();
  return err as { code: string; status: number; message: string; details?: Record<string, unknown> };
}

describe('GitHub-release install faults on real ELF builds', () => {
  it('installs v1 (dynamic glibc build) through a 302 to a second host that never sees the token', async () => {
    const m = await installGithubPackage(ctx(), { repo: REPO, tag: 'v1.0.0' });
    expect(m).toMatchObject({ name: 'hello-tool', tag: 'v1.0.0', version: 'v1.0.0', checksumSource: 'checksums_file', smokeOutput: 'hello-tool 1.0.0' });
    expect(m.binaries).toEqual([expect.objectContaining({ name: 'hello-tool', libc: 'glibc', machine: 'amd64', interp: EXPECTED_INTERP.glibc })]);
    expect(current()).toBe('v1.0.0');
    expect(runVersion()).toBe('hello-tool 1.0.0\n');

    const apiHost = new URL(gh.base).host;
    const dlHost = new URL(gh.downloadBase).host;
    expect(dlHost).toMatch(/^localhost:\d+$/);
    expect(dlHost).not.toBe(apiHost);
    // The API calls went to the API host with the token.
    const api = gh.requests.filter((r) => r.path.startsWith('/repos/'));
    expect(api.length).toBeGreaterThan(0);
    for (const r of api) expect(r).toMatchObject({ host: apiHost, auth: `Bearer ${TOKEN}` });
    // The archive and checksums.txt were each redirected by the API host and fetched from the second host, without the token.
    for (const name of [assetName('1.0.0'), 'checksums.txt']) {
      const first = gh.requests.filter((r) => r.path === `/${REPO}/releases/download/v1.0.0/${encodeURIComponent(name)}`);
      expect(first).toHaveLength(1);
      expect(first[0].host).toBe(apiHost);
      const second = downloadsOf(name);
      expect(second).toHaveLength(1);
      expect(second[0].host).toBe(dlHost);
      expect(second[0].auth).toBeUndefined();
    }
    expect(scratchLeft()).toEqual([]);
    treeAfterV1 = walk(runtimeDir);
    expect(treeAfterV1).toEqual(expect.arrayContaining(['bin/hello-tool', 'github/hello-tool/v1.0.0/hello-tool', 'github/hello-tool/current']));
  });

  it('checksum mismatch: checksum_mismatch, v1 untouched', async () => {
    const e = await failingUpdate('v2.0.0');
    expect(e).toMatchObject({ code: 'checksum_mismatch', status: 422 });
    await expectV1Intact();
  });

  it('truncated download (short body, full size declared): retried once, then download_failed, v1 untouched', async () => {
    const e = await failingUpdate('v2.0.1');
    expect(e).toMatchObject({ code: 'download_failed', status: 502 });
    expect(downloadsOf(assetName('2.0.1'))).toHaveLength(2);
    await expectV1Intact();
  });

  it('truncated download (socket closed before the declared Content-Length): download_failed, v1 untouched', async () => {
    const e = await failingUpdate('v2.0.2');
    expect(e).toMatchObject({ code: 'download_failed', status: 502 });
    expect(downloadsOf(assetName('2.0.2'))).toHaveLength(2);
    await expectV1Intact();
  });

  it('not an ELF (the archive holds only shell scripts and text): no_binary, v1 untouched', async () => {
    const e = await failingUpdate('v2.0.3');
    expect(e).toMatchObject({ code: 'no_binary', status: 422 });
    expect(e.details?.skipped).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: `${dirName('2.0.3')}/hello-tool`, reason: 'script, not an ELF binary' })]),
    );
    await expectV1Intact();
  });

  it('wrong architecture (a real aarch64 build in an amd64-named asset): wrong_architecture, v1 untouched', async () => {
    const e = await failingUpdate('v2.0.4');
    expect(e).toMatchObject({
      code: 'wrong_architecture',
      status: 422,
      details: expect.objectContaining({ field: 'machine', expected: 62, found: 183, expectedArch: 'amd64', foundArch: 'arm64' }),
    });
    await expectV1Intact();
  });

  it('glibc build on a musl target: libc_mismatch, v1 untouched', async () => {
    const e = await failingUpdate('v2.0.5', MUSL);
    expect(e).toMatchObject({ code: 'libc_mismatch', status: 422, details: { interp: EXPECTED_INTERP.glibc, binaryLibc: 'glibc', targetLibc: 'musl' } });
    await expectV1Intact();
    // The same asset is fine for a glibc target: the refusal came from the target, not the file.
    expect(execFileSync(buildHello('glibc', { version: '2.0.5' }), ['--version'], { encoding: 'utf8' })).toBe('hello-tool 2.0.5\n');
  });

  it('musl build whose loader does not exist on this glibc host: libc_mismatch, v1 untouched', async () => {
    expect(fs.existsSync(ABSENT_MUSL_LOADER)).toBe(false);
    const e = await failingUpdate('v2.0.6');
    expect(e).toMatchObject({ code: 'libc_mismatch', status: 422, details: { interp: ABSENT_MUSL_LOADER, binaryLibc: 'musl', targetLibc: 'glibc' } });
    await expectV1Intact();
  });

  it('smoke test failing (--version exits 3): smoke_test_failed, the new folder removed, v1 untouched', async () => {
    const e = await failingUpdate('v2.0.7');
    expect(e).toMatchObject({ code: 'smoke_test_failed', status: 422 });
    expect(e.message).toMatch(/exited with 3/);
    await expectV1Intact();
  });

  it("archive with a '../' entry: unsafe_archive, nothing escaped, v1 untouched", async () => {
    const e = await failingUpdate('v2.0.8');
    expect(e).toMatchObject({ code: 'unsafe_archive', status: 422 });
    expect(e.message).toMatch(/'\.\.' segment/);
    await expectV1Intact();
    expect(fs.existsSync(path.join(runtimeDir, 'github', 'escaped-by-dotdot'))).toBe(false);
  });

  it('archive whose binary is a symlink pointing outside it (relative and absolute): refused, no link created, v1 untouched', async () => {
    // The installer never creates links from entries; a link escaping the archive is skipped, and as the
    // only binary the install fails with no_binary naming the reason (the contract of binaries.test.ts).
    for (const [tag, target] of [
      ['v2.0.9', '../../../../../../usr/bin/true'],
      ['v2.0.10', '/usr/bin/true'],
    ]) {
      const e = await failingUpdate(tag);
      expect(e).toMatchObject({ code: 'no_binary', status: 422 });
      expect(e.details?.skipped).toContainEqual({ path: `${dirName(tag.slice(1))}/hello-tool`, reason: `link points outside the archive (${target})` });
      await expectV1Intact();
    }
  });

  it('rate-limited API (remaining 0, reset an hour away; then retry-after 3600): rate_limited at once, v1 untouched', async () => {
    const started = Date.now();
    try {
      gh.rateLimit = 'reset';
      const a = await failingUpdate('v3.0.0');
      expect(a).toMatchObject({ code: 'rate_limited', status: 429, details: expect.objectContaining({ kind: 'reset', remaining: 0 }) });
      expect(a.details?.retryAfterSeconds).toBeGreaterThan(3500);
      gh.rateLimit = 'retry-after';
      const b = await failingUpdate('v3.0.0');
      expect(b).toMatchObject({ code: 'rate_limited', status: 429, details: expect.objectContaining({ kind: 'retry-after', retryAfterSeconds: 3600 }) });
    } finally {
      gh.rateLimit = null;
    }
    // Failing, not waiting an hour (nor the 60 s a short limit would be waited).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(downloadsOf(assetName('3.0.0'))).toHaveLength(0);
    await expectV1Intact();
  });

  it('static build on a glibc target: installed, libc static recorded, runs', async () => {
    const m = await installGithubPackage(ctx(GLIBC), { repo: REPO, tag: 'v4.0.0' });
    expect(m.binaries).toEqual([expect.objectContaining({ name: 'hello-tool', libc: 'static', interp: null, machine: 'amd64' })]);
    expect(m.smokeOutput).toBe('hello-tool 4.0.0');
    expect(current()).toBe('v4.0.0');
    expect(runVersion()).toBe('hello-tool 4.0.0\n');
    expect((await getGithubPackage(t.services.database.db, 'hello-tool'))?.binaries).toEqual([expect.objectContaining({ libc: 'static', interp: null })]);
    expect(scratchLeft()).toEqual([]);
  });

  it('static build on a musl target: installed, libc static recorded, runs', async () => {
    const m = await installGithubPackage(ctx(MUSL), { repo: REPO, tag: 'v5.0.0' });
    expect(m.binaries).toEqual([expect.objectContaining({ name: 'hello-tool', libc: 'static', interp: null, machine: 'amd64' })]);
    expect(current()).toBe('v5.0.0');
    expect(runVersion()).toBe('hello-tool 5.0.0\n');
    expect(versions()).toEqual(['v1.0.0', 'v4.0.0', 'v5.0.0']);
  });

  it("dynamic musl build on this glibc host, whose musl loader is installed (Debian's musl package): accepted, libc musl recorded, runs", async () => {
    // musl-tools depends on musl, which ships /lib/ld-musl-x86_64.so.1: the loader exists, so the ELF check accepts the binary.
    expect(fs.existsSync(EXPECTED_INTERP.musl!)).toBe(true);
    const m = await installGithubPackage(ctx(GLIBC), { repo: REPO, tag: 'v6.0.0' });
    expect(m.binaries).toEqual([expect.objectContaining({ libc: 'musl', interp: EXPECTED_INTERP.musl })]);
    expect(runVersion()).toBe('hello-tool 6.0.0\n');
  });

  it('private asset: the asset API URL gets the token, its redirect to the second host does not', async () => {
    const m = await installGithubPackage(ctx(), { repo: REPO, tag: 'v7.0.0' });
    expect(m.tag).toBe('v7.0.0');
    expect(runVersion()).toBe('hello-tool 7.0.0\n');
    const pub = gh.requests.filter((r) => r.path === `/${REPO}/releases/download/v7.0.0/${encodeURIComponent(assetName('7.0.0'))}`);
    expect(pub).toHaveLength(1);
    expect(pub[0].auth).toBeUndefined();
    const viaApi = gh.requests.filter((r) => /^\/repos\/acme\/hello-tool\/releases\/assets\/\d+$/.test(r.path));
    expect(viaApi).toHaveLength(1);
    expect(viaApi[0].auth).toBe(`Bearer ${TOKEN}`);
    const second = downloadsOf(assetName('7.0.0'));
    expect(second).toHaveLength(1);
    expect(second[0].host).toBe(new URL(gh.downloadBase).host);
    expect(second[0].auth).toBeUndefined();
  });
});
