import { describe, expect, it } from 'vitest';
import { isAppError } from '../../core/errors';
import { assetFormat, pickAsset, type ReleaseAsset, rankAssets, SCORES } from './picker';
import { assets, chosen, GLIBC, gh, jq, lazygit, MUSL, noMatch, pick, reasonOf, ripgrep, T } from './picker.fixtures';

describe('worked examples (linux/amd64)', () => {
  const rg = ['rg-x86_64-unknown-linux-gnu.tar.gz', 'rg-x86_64-unknown-linux-musl.tar.gz', 'rg-x86_64-apple-darwin.tar.gz'];

  it('gnu is dropped on a musl host, musl wins', () => {
    const r = pick(rg, MUSL, 'rg');
    expect(r.chosen.asset.name).toBe('rg-x86_64-unknown-linux-musl.tar.gz');
    expect(r.chosen.libc).toBe('musl');
    expect(r.ranked).toHaveLength(1);
    expect(r.rejected).toEqual([
      { name: 'rg-x86_64-unknown-linux-gnu.tar.gz', reason: 'gnu build on a musl host' },
      { name: 'rg-x86_64-apple-darwin.tar.gz', reason: 'other OS (darwin)' },
    ]);
  });

  it('gnu +25 beats musl -10 on a glibc host', () => {
    const r = pick(rg, GLIBC, 'rg');
    expect(r.ranked.map((s) => [s.asset.name, s.score, s.libc])).toEqual([
      ['rg-x86_64-unknown-linux-gnu.tar.gz', SCORES.archStrong + SCORES.glibcHostGnu + SCORES.archive + SCORES.stem, 'gnu'],
      ['rg-x86_64-unknown-linux-musl.tar.gz', SCORES.archStrong + SCORES.glibcHostMusl + SCORES.archive + SCORES.stem, 'musl'],
    ]);
    expect(r.chosen.reasons).toEqual([
      'os linux',
      'arch amd64 (+30)',
      'gnu on a glibc host (+25)',
      'archive (+10)',
      'name is the tool name plus platform/version tokens (+20)',
    ]);
  });

  it.each([MUSL, GLIBC])('.deb and .txt are denied (%o)', (target) => {
    const names = ['tool_linux_amd64.tar.gz', 'tool_linux_amd64.deb', 'checksums.txt'];
    const r = pick(names, target, 'tool');
    expect(r.chosen.asset.name).toBe('tool_linux_amd64.tar.gz');
    expect(r.rejected).toEqual([
      { name: 'tool_linux_amd64.deb', reason: 'denied extension .deb' },
      { name: 'checksums.txt', reason: 'checksum file' },
    ]);
  });

  it.each([MUSL, GLIBC])('arm64 mismatches, the no-arch asset is the fallback (%o)', (target) => {
    const r = pick(['tool-linux', 'tool-linux-arm64'], target, 'tool');
    expect(r.chosen.asset.name).toBe('tool-linux');
    expect(r.chosen.reasons).toContain('no arch token (fallback) (+0)');
    expect(r.rejected).toEqual([{ name: 'tool-linux-arm64', reason: 'other arch (arm64)' }]);
  });

  it.each([MUSL, GLIBC])('the tool name is stripped before OS/arch matching (%o)', (target) => {
    const r = pick(['go-arch-lint_linux_amd64.tar.gz', 'go-arch-lint_linux_arm64.tar.gz'], target, 'go-arch-lint');
    expect(r.chosen.asset.name).toBe('go-arch-lint_linux_amd64.tar.gz');
    expect(r.chosen.score).toBe(SCORES.archStrong + SCORES.archive + SCORES.stem);
  });
});

describe('hard filters', () => {
  it('a no-arch asset is refused once an asset names our arch', () => {
    expect(reasonOf(['tool-linux', 'tool-linux-amd64'], GLIBC, 'tool', 'tool-linux')).toBe('no arch token (an asset names amd64)');
  });

  it('x86_64 and arm_64 are not read as the 32-bit x86 / arm tokens', () => {
    const list = ['tool-linux-x86_64.tar.gz', 'tool-linux-x86.tar.gz', 'tool-linux-arm_64.tar.gz', 'tool-linux-arm.tar.gz'];
    const r386 = rankAssets(assets(list), T('linux', '386', 'glibc'), { toolName: 'tool' });
    expect(r386.ranked.map((s) => s.asset.name)).toEqual(['tool-linux-x86.tar.gz']);
    expect(r386.ranked[0].reasons).toContain('arch 386 (+30)');
    expect(r386.rejected[0]).toEqual({ name: 'tool-linux-x86_64.tar.gz', reason: 'other arch (amd64)' });
    const rArm = rankAssets(assets(list), T('linux', 'arm', 'glibc'), { toolName: 'tool' });
    expect(rArm.ranked.map((s) => s.asset.name)).toEqual(['tool-linux-arm.tar.gz']);
    expect(rArm.rejected.find((x) => x.name === 'tool-linux-arm_64.tar.gz')?.reason).toBe('other arch (arm64)');
  });

  it('a no-OS asset is the fallback only when no asset names our OS', () => {
    expect(chosen(['tool-x86_64.tar.gz', 'tool-darwin-x86_64.tar.gz'], GLIBC, 'tool')).toBe('tool-x86_64.tar.gz');
    expect(reasonOf(['tool-x86_64.tar.gz', 'tool-linux-x86_64.tar.gz'], GLIBC, 'tool', 'tool-x86_64.tar.gz')).toBe('no OS token (an asset names linux)');
  });

  it('state other than uploaded, size over the cap, android, unknown extensions', () => {
    const list: ReleaseAsset[] = [
      { name: 'tool-linux-amd64.tar.gz', size: 10, state: 'open' },
      { name: 'tool-linux-x86_64.tar.gz', size: 201 * 1024 * 1024, state: 'uploaded' },
      { name: 'tool-android-amd64.tar.gz', size: 10 },
      { name: 'tool-linux-amd64.jar', size: 10 },
      { name: 'tool-linux-amd64.tar.xz', size: 10 },
    ];
    const r = rankAssets(list, GLIBC, { toolName: 'tool' });
    expect(r.ranked.map((s) => s.asset.name)).toEqual(['tool-linux-amd64.tar.xz']);
    expect(r.rejected.map((x) => x.reason)).toEqual([
      'state is open, not uploaded',
      'size 201.0 MiB is over the 200.0 MiB cap',
      'android build',
      'extension .jar is not on the allowlist',
    ]);
    expect(rankAssets(list.slice(4), GLIBC, { toolName: 'tool', maxSizeBytes: 9 }).rejected[0].reason).toMatch(/over the 0\.0 MiB cap/);
  });

  it.each([
    ['tool-linux-amd64.tar.gz.sha256', 'denied extension .sha256'],
    ['tool-linux-amd64.tar.gz.sig', 'denied extension .sig'],
    ['tool-linux-amd64.sbom.json', 'denied extension .json'],
    ['tool-linux-amd64.intoto.jsonl', 'denied extension .intoto.jsonl'],
    ['tool-linux-amd64.rpm', 'denied extension .rpm'],
    ['tool_1.0_amd64.apk', 'denied extension .apk'],
    ['tool-darwin.dmg', 'denied extension .dmg'],
    ['SHA256SUMS', 'checksum file'],
    ['CHANGELOG.md', 'documentation file'],
    ['LICENSE-linux-amd64', 'documentation file'],
    ['tool-1.0-source.tar.gz', 'source archive'],
    ['Source code (zip)', 'source archive'],
  ])('%s is refused: %s', (name, reason) => {
    expect(assetFormat(name)).toEqual({ reason });
  });

  it.each([
    ['tool_1.2.3_linux_amd64', 'none'],
    ['tool-v1.2', 'none'],
    ['tool.linux.amd64', 'none'],
    ['tool.AppImage', 'appimage'],
    ['tool-linux-amd64.gz', 'compressed'],
    ['tool.tar.zst', 'archive'],
    ['tool.zip', 'zip'],
  ])('%s has format %s', (name, format) => {
    expect(assetFormat(name)).toMatchObject({ format });
  });

  it('.exe is Windows-only and .AppImage Linux-only', () => {
    expect(reasonOf(['tool-amd64.exe', 'tool-amd64.AppImage'], GLIBC, 'tool', 'tool-amd64.exe')).toBe('Windows-only format (.exe)');
    expect(chosen(['tool-amd64.exe', 'tool-amd64.AppImage'], GLIBC, 'tool')).toBe('tool-amd64.AppImage');
    expect(chosen(['tool-amd64.exe', 'tool-amd64.AppImage'], T('windows', 'amd64'), 'tool')).toBe('tool-amd64.exe');
  });

  it('the tool name is stripped, so "win-tool" is not a Windows asset', () => {
    expect(chosen(['win-tool_linux_amd64.tar.gz'], GLIBC, 'win-tool')).toBe('win-tool_linux_amd64.tar.gz');
    expect(reasonOf(['win-tool_linux_amd64.tar.gz'], GLIBC, 'other', 'win-tool_linux_amd64.tar.gz')).toBe('other OS (windows)');
  });
});

describe('libc and format scores', () => {
  const names = ['tool-x86_64-unknown-linux-gnu.tar.gz', 'tool-x86_64-unknown-linux-musl.tar.gz', 'tool-linux-amd64-static'];

  it('unknown libc prefers musl, then static, over gnu', () => {
    const r = pick(names, T('linux', 'amd64', 'unknown'), 'tool');
    expect(r.ranked.map((s) => [s.asset.name, s.score])).toEqual([
      ['tool-x86_64-unknown-linux-musl.tar.gz', 30 + SCORES.unknownHostMusl + 10 + 20],
      ['tool-linux-amd64-static', 30 + SCORES.static + 20],
      ['tool-x86_64-unknown-linux-gnu.tar.gz', 30 + SCORES.unknownHostGnu + 10 + 20],
    ]);
  });

  it('a static build stays on a musl host and gets +15', () => {
    const r = pick(['tool-x86_64-unknown-linux-gnu.tar.gz', 'tool-linux-amd64-static'], MUSL, 'tool');
    expect(r.chosen.asset.name).toBe('tool-linux-amd64-static');
    expect(r.chosen.libc).toBe('static');
    expect(r.chosen.reasons).toContain('static build (+15)');
  });

  it('libc tokens are ignored off Linux', () => {
    const r = pick(['tool-x86_64-pc-windows-gnu.zip'], T('windows', 'amd64'), 'tool');
    expect(r.chosen.libc).toBeUndefined();
    expect(r.chosen.score).toBe(30 + SCORES.archive + SCORES.zipWindows + SCORES.stem);
  });

  it('zip gets +5 on Linux/macOS and +15 on Windows', () => {
    expect(pick(['tool-darwin-arm64.zip'], T('darwin', 'arm64'), 'tool').chosen.reasons).toContain('zip (+5)');
    expect(pick(['tool-windows-arm64.zip'], T('windows', 'arm64'), 'tool').chosen.reasons).toContain('zip on Windows (+15)');
  });

  it('a debug/test build is penalised by 40 and loses a contest it would otherwise win', () => {
    const list = ['tool-debug-x86_64-unknown-linux-gnu.tar.gz', 'tool-x86_64-unknown-linux-musl.tar.gz'];
    const r = pick(list, GLIBC, 'tool');
    expect(r.chosen.asset.name).toBe('tool-x86_64-unknown-linux-musl.tar.gz');
    const debug = r.ranked.find((s) => s.asset.name.includes('debug'))!;
    expect(debug.score).toBe(30 + 25 + 10 + SCORES.debugOrTest);
    expect(debug.reasons).toContain('debug/test build (-40)');
    expect(pick(['tool-test-linux-amd64'], GLIBC, 'tool').chosen.score).toBe(30 - 40);
    expect(pick(['tool-latest-linux-amd64'], GLIBC, 'tool').chosen.reasons.join()).not.toMatch(/debug/);
  });

  it('the stem bonus needs the tool name in front and only platform/version tokens', () => {
    const r = pick(['tool-lsp-linux-amd64.tar.gz', 'tool-1.2.3-linux-amd64.tar.gz'], GLIBC, 'tool');
    expect(r.chosen.asset.name).toBe('tool-1.2.3-linux-amd64.tar.gz');
    expect(r.ranked.map((s) => s.score)).toEqual([60, 40]);
    expect(pick(['other-linux-amd64.tar.gz'], GLIBC, 'tool').chosen.score).toBe(40);
  });

  it('a macOS universal build is a weak match', () => {
    const r = pick(['tool-darwin-universal.tar.gz', 'tool-linux-amd64.tar.gz'], T('darwin', 'arm64'), 'tool');
    expect(r.chosen.reasons).toContain('arch arm64, weak token (+10)');
  });
});

describe('ranking is deterministic', () => {
  it('equal scores: shortest name first, then code-point order', () => {
    const r = pick(jq, T('linux', 'amd64', 'glibc'), 'jq');
    expect(r.ranked.map((s) => [s.asset.name, s.score])).toEqual([
      ['jq-linux64', 50],
      ['jq-linux-amd64', 50],
    ]);
    const arm = pick(jq, T('linux', 'arm', 'glibc'), 'jq');
    expect(arm.ranked.map((s) => s.asset.name)).toEqual(['jq-linux-armel', 'jq-linux-armhf']);
  });

  it('equal score and length: code-point order whatever the input order', () => {
    const target = T('linux', 'arm', 'glibc');
    expect(pick([...jq].reverse(), target, 'jq').ranked.map((s) => s.asset.name)).toEqual(['jq-linux-armel', 'jq-linux-armhf']);
    expect(chosen(['tool-linux-armv7', 'tool-linux-armv6'], target, 'tool')).toBe('tool-linux-armv6');
  });

  it('the input order does not change the result', () => {
    const target = T('linux', 'arm', 'glibc');
    const forward = pick(ripgrep, target, 'ripgrep').ranked.map((s) => s.asset.name);
    const backward = pick([...ripgrep].reverse(), target, 'ripgrep').ranked.map((s) => s.asset.name);
    expect(forward).toEqual(backward);
    expect(forward).toEqual([
      'ripgrep-14.1.0-arm-unknown-linux-gnueabihf.tar.gz',
      'ripgrep-14.1.0-armv7-unknown-linux-gnueabihf.tar.gz',
      'ripgrep-14.1.0-armv7-unknown-linux-musleabi.tar.gz',
      'ripgrep-14.1.0-armv7-unknown-linux-musleabihf.tar.gz',
    ]);
  });
});

describe('overrides', () => {
  it('assetPattern with {version} and {arch} picks the named asset and bypasses the libc filter', () => {
    const target = T('linux', 'arm64', 'musl');
    const r = pick(ripgrep, target, 'ripgrep', { assetPattern: 'ripgrep-{version}-{arch}-unknown-linux-gnu.tar.gz', version: 'v14.1.0' });
    expect(r.chosen.asset.name).toBe('ripgrep-14.1.0-aarch64-unknown-linux-gnu.tar.gz');
    expect(r.chosen.reasons).toContain('gnu build on a musl host (kept: assetPattern)');
    expect(r.ranked).toHaveLength(1);
  });

  it('assetPattern with another version matches nothing', () => {
    const err = noMatch(() => pick(ripgrep, GLIBC, 'ripgrep', { assetPattern: 'ripgrep-{version}-*-linux-*.tar.gz', version: '14.0.0' }));
    expect(err.candidates.find((c) => c.name === 'ripgrep-14.1.0-x86_64-unknown-linux-musl.tar.gz')?.reason).toBe(
      'does not match "ripgrep-{version}-*-linux-*.tar.gz" (assetPattern)',
    );
  });

  it('assetPattern globs: * and ? and {os} (case-insensitive)', () => {
    expect(chosen(lazygit, GLIBC, 'lazygit', { assetPattern: 'lazygit_*_{os}_?86_64.tar.gz' })).toBe('lazygit_0.40.2_Linux_x86_64.tar.gz');
  });

  it('matchingRegex and matching narrow the candidates, the platform filters stay', () => {
    const list = ['tool-linux-amd64.tar.gz', 'tool-lsp-linux-amd64.tar.gz', 'tool-lsp-linux-arm64.tar.gz'];
    expect(chosen(list, GLIBC, 'tool')).toBe('tool-linux-amd64.tar.gz');
    expect(chosen(list, GLIBC, 'tool', { matchingRegex: '-lsp-' })).toBe('tool-lsp-linux-amd64.tar.gz');
    expect(chosen(list, GLIBC, 'tool', { matching: 'lsp' })).toBe('tool-lsp-linux-amd64.tar.gz');
    const err = noMatch(() => pick(list, GLIBC, 'tool', { matching: 'arm64' }));
    expect(err.candidates).toEqual([
      { name: 'tool-linux-amd64.tar.gz', reason: 'does not contain "arm64" (matching)' },
      { name: 'tool-lsp-linux-amd64.tar.gz', reason: 'does not contain "arm64" (matching)' },
      { name: 'tool-lsp-linux-arm64.tar.gz', reason: 'other arch (arm64)' },
    ]);
  });

  it('an invalid matchingRegex is a VALIDATION error', () => {
    let caught: unknown;
    try {
      pick(gh, GLIBC, 'cli', { matchingRegex: '(' });
    } catch (e) {
      caught = e;
    }
    expect(isAppError(caught) && caught.code).toBe('validation');
  });
});

describe('no match', () => {
  it('an empty release says it has no assets', () => {
    const err = noMatch(() => pickAsset([], GLIBC, { toolName: 'tool' }));
    expect(err.candidates).toEqual([]);
    expect(err.message).toBe('The release has no assets (target linux/amd64/glibc).');
  });

  it('examples of reasons', () => {
    const err = noMatch(() => pick(['tool-darwin-arm64.tar.gz', 'tool.deb'], GLIBC, 'tool'));
    expect(err.message).toBe(
      'No release asset fits linux/amd64/glibc. Candidates:\n  tool-darwin-arm64.tar.gz: other OS (darwin)\n  tool.deb: denied extension .deb',
    );
  });
});

describe('checksum files named only after their digest', () => {
  it.each(['SHASUMS256', 'sha256', 'sha256.sum', 'MD5', 'SHA512SUMS'])('%s is refused as a checksum file even when nothing else names the OS', (name) => {
    const { ranked, rejected } = rankAssets(
      [
        { name: 'tool', size: 10 },
        { name, size: 10 },
      ],
      { os: 'linux', arch: 'amd64', libc: 'glibc' },
      { toolName: 'tool' },
    );
    expect(ranked.map((r) => r.asset.name)).toEqual(['tool']);
    expect(rejected).toEqual([{ name, reason: 'checksum file' }]);
  });
});
