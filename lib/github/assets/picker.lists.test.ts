// The picker on the complete asset lists of a few real releases, per target.
import { describe, expect, it } from 'vitest';
import { chosen, GLIBC, gh, jq, lazygit, noMatch, pick, reasonOf, ripgrep, T } from './picker.fixtures';

describe('real release asset lists', () => {
  it.each([
    [T('linux', 'amd64', 'glibc'), 'ripgrep-14.1.0-x86_64-unknown-linux-musl.tar.gz'],
    [T('linux', 'amd64', 'musl'), 'ripgrep-14.1.0-x86_64-unknown-linux-musl.tar.gz'],
    [T('linux', 'arm64', 'glibc'), 'ripgrep-14.1.0-aarch64-unknown-linux-gnu.tar.gz'],
    [T('linux', '386', 'glibc'), 'ripgrep-14.1.0-i686-unknown-linux-gnu.tar.gz'],
    [T('linux', 'arm', 'glibc'), 'ripgrep-14.1.0-arm-unknown-linux-gnueabihf.tar.gz'],
    [T('linux', 'arm', 'musl'), 'ripgrep-14.1.0-armv7-unknown-linux-musleabi.tar.gz'],
    [T('darwin', 'arm64'), 'ripgrep-14.1.0-aarch64-apple-darwin.tar.gz'],
    [T('darwin', 'amd64'), 'ripgrep-14.1.0-x86_64-apple-darwin.tar.gz'],
    [T('windows', 'amd64'), 'ripgrep-14.1.0-x86_64-pc-windows-gnu.zip'],
    [T('windows', '386'), 'ripgrep-14.1.0-i686-pc-windows-msvc.zip'],
  ])('ripgrep 14 on %o → %s', (target, name) => {
    expect(chosen(ripgrep, target, 'ripgrep')).toBe(name);
  });

  it('ripgrep 14 has nothing for a musl arm64 host: the error lists every asset with its reason', () => {
    const err = noMatch(() => pick(ripgrep, T('linux', 'arm64', 'musl'), 'ripgrep'));
    expect(err.code).toBe('no_matching_asset');
    expect(err.candidates.map((c) => c.name)).toEqual(ripgrep);
    expect(err.candidates.find((c) => c.name.includes('aarch64-unknown-linux-gnu.tar.gz'))?.reason).toBe('gnu build on a musl host');
    expect(err.candidates.find((c) => c.name.endsWith('.deb'))?.reason).toBe('denied extension .deb');
    expect(err.candidates.find((c) => c.name.includes('s390x'))?.reason).toBe('other arch');
    for (const name of ripgrep) expect(err.message).toContain(`  ${name}: `);
    expect(err.message).toMatch(/^No release asset fits linux\/arm64\/musl\./);
  });

  it.each([
    [T('linux', 'amd64', 'glibc'), 'gh_2.40.0_linux_amd64.tar.gz'],
    [T('linux', 'arm64', 'musl'), 'gh_2.40.0_linux_arm64.tar.gz'],
    [T('linux', '386', 'glibc'), 'gh_2.40.0_linux_386.tar.gz'],
    [T('linux', 'arm', 'glibc'), 'gh_2.40.0_linux_armv6.tar.gz'],
    [T('darwin', 'arm64'), 'gh_2.40.0_macOS_arm64.zip'],
    [T('windows', 'amd64'), 'gh_2.40.0_windows_amd64.zip'],
  ])('gh 2.40 (repo cli/cli) on %o → %s', (target, name) => {
    expect(chosen(gh, target, 'cli')).toBe(name);
  });

  it('gh: every rejected asset has the expected reason on linux/amd64', () => {
    const r = pick(gh, GLIBC, 'cli');
    const reasons = Object.fromEntries(r.rejected.map((x) => [x.name, x.reason]));
    expect(reasons['gh_2.40.0_checksums.txt']).toBe('checksum file');
    expect(reasons['gh_2.40.0_linux_amd64.rpm']).toBe('denied extension .rpm');
    expect(reasons['gh_2.40.0_macOS_universal.pkg']).toBe('denied extension .pkg');
    expect(reasons['gh_2.40.0_linux_armv6.tar.gz']).toBe('other arch (arm)');
    expect(reasons['gh_2.40.0_linux_386.tar.gz']).toBe('other arch (386)');
    expect(reasons['gh_2.40.0_windows_amd64.zip']).toBe('other OS (windows)');
    expect(r.ranked).toHaveLength(1);
    expect(r.rejected).toHaveLength(gh.length - 1);
  });

  it.each([
    [T('linux', 'amd64', 'glibc'), 'lazygit_0.40.2_Linux_x86_64.tar.gz', 60],
    [T('linux', 'arm64', 'glibc'), 'lazygit_0.40.2_Linux_arm64.tar.gz', 60],
    [T('linux', '386', 'glibc'), 'lazygit_0.40.2_Linux_32-bit.tar.gz', 40],
    [T('linux', 'arm', 'musl'), 'lazygit_0.40.2_Linux_armv6.tar.gz', 60],
    [T('darwin', 'amd64'), 'lazygit_0.40.2_Darwin_x86_64.tar.gz', 60],
    [T('windows', '386'), 'lazygit_0.40.2_Windows_32-bit.zip', 55],
  ])('lazygit 0.40 on %o → %s (score %d)', (target, name, score) => {
    const r = pick(lazygit, target, 'lazygit');
    expect([r.chosen.asset.name, r.chosen.score]).toEqual([name, score]);
  });

  it('lazygit: freebsd is another OS, 32-bit is a weak 386 token', () => {
    expect(reasonOf(lazygit, GLIBC, 'lazygit', 'lazygit_0.40.2_freebsd_x86_64.tar.gz')).toBe('other OS');
    expect(reasonOf(lazygit, GLIBC, 'lazygit', 'lazygit_0.40.2_Linux_32-bit.tar.gz')).toBe('other arch (386)');
    expect(pick(lazygit, T('linux', '386', 'glibc'), 'lazygit').chosen.reasons).toContain('arch 386, weak token (+10)');
  });

  it.each([
    [T('linux', 'amd64', 'glibc'), 'jq-linux64'],
    [T('linux', 'arm64', 'musl'), 'jq-linux-arm64'],
    [T('linux', '386', 'glibc'), 'jq-linux-i386'],
    [T('linux', 'arm', 'glibc'), 'jq-linux-armel'],
    [T('darwin', 'amd64'), 'jq-osx-amd64'],
    [T('darwin', 'arm64'), 'jq-macos-arm64'],
    [T('windows', 'amd64'), 'jq-win64.exe'],
    [T('windows', '386'), 'jq-windows-i386.exe'],
  ])('jq 1.7 on %o → %s', (target, name) => {
    expect(chosen(jq, target, 'jq')).toBe(name);
  });

  it('jq: the source tarballs carry no OS token and are refused', () => {
    expect(reasonOf(jq, GLIBC, 'jq', 'jq-1.7.1.tar.gz')).toBe('no OS token (an asset names linux)');
  });
});
