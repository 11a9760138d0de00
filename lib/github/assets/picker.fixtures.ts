// Helpers and real asset lists shared by the asset picker tests.
import { expect } from 'vitest';
import { NoMatchingAssetError, type PickTarget, pickAsset, type ReleaseAsset, rankAssets } from './picker';

export const assets = (names: string[], extra: Partial<ReleaseAsset> = {}): ReleaseAsset[] =>
  names.map((name, i) => ({ id: i + 1, name, size: 5_000_000, state: 'uploaded', ...extra }));

export const T = (os: PickTarget['os'], arch: PickTarget['arch'], libc: PickTarget['libc'] = 'unknown'): PickTarget => ({ os, arch, libc });
export const GLIBC = T('linux', 'amd64', 'glibc');
export const MUSL = T('linux', 'amd64', 'musl');

export const pick = (names: string[], target: PickTarget, toolName: string, more: object = {}) => pickAsset(assets(names), target, { toolName, ...more });
export const chosen = (names: string[], target: PickTarget, toolName: string, more: object = {}) => pick(names, target, toolName, more).chosen.asset.name;
export const reasonOf = (names: string[], target: PickTarget, toolName: string, name: string) =>
  rankAssets(assets(names), target, { toolName }).rejected.find((r) => r.name === name)?.reason;

export function noMatch(fn: () => unknown): NoMatchingAssetError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(NoMatchingAssetError);
    return e as NoMatchingAssetError;
  }
  throw new Error('expected NoMatchingAssetError');
}

export const ripgrep = [
  'ripgrep-14.1.0-aarch64-apple-darwin.tar.gz',
  'ripgrep-14.1.0-aarch64-apple-darwin.tar.gz.sha256',
  'ripgrep-14.1.0-aarch64-unknown-linux-gnu.tar.gz',
  'ripgrep-14.1.0-aarch64-unknown-linux-gnu.tar.gz.sha256',
  'ripgrep-14.1.0-arm-unknown-linux-gnueabihf.tar.gz',
  'ripgrep-14.1.0-armv7-unknown-linux-gnueabihf.tar.gz',
  'ripgrep-14.1.0-armv7-unknown-linux-musleabi.tar.gz',
  'ripgrep-14.1.0-armv7-unknown-linux-musleabihf.tar.gz',
  'ripgrep-14.1.0-i686-pc-windows-msvc.zip',
  'ripgrep-14.1.0-i686-unknown-linux-gnu.tar.gz',
  'ripgrep-14.1.0-powerpc64-unknown-linux-gnu.tar.gz',
  'ripgrep-14.1.0-s390x-unknown-linux-gnu.tar.gz',
  'ripgrep-14.1.0-x86_64-apple-darwin.tar.gz',
  'ripgrep-14.1.0-x86_64-apple-darwin.tar.gz.sha256',
  'ripgrep-14.1.0-x86_64-pc-windows-gnu.zip',
  'ripgrep-14.1.0-x86_64-pc-windows-msvc.zip',
  'ripgrep-14.1.0-x86_64-pc-windows-msvc.zip.sha256',
  'ripgrep-14.1.0-x86_64-unknown-linux-musl.tar.gz',
  'ripgrep-14.1.0-x86_64-unknown-linux-musl.tar.gz.sha256',
  'ripgrep_14.1.0-1_amd64.deb',
];
export const gh = [
  'gh_2.40.0_checksums.txt',
  'gh_2.40.0_linux_386.deb',
  'gh_2.40.0_linux_386.rpm',
  'gh_2.40.0_linux_386.tar.gz',
  'gh_2.40.0_linux_amd64.deb',
  'gh_2.40.0_linux_amd64.rpm',
  'gh_2.40.0_linux_amd64.tar.gz',
  'gh_2.40.0_linux_arm64.deb',
  'gh_2.40.0_linux_arm64.rpm',
  'gh_2.40.0_linux_arm64.tar.gz',
  'gh_2.40.0_linux_armv6.deb',
  'gh_2.40.0_linux_armv6.tar.gz',
  'gh_2.40.0_macOS_amd64.zip',
  'gh_2.40.0_macOS_arm64.zip',
  'gh_2.40.0_macOS_universal.pkg',
  'gh_2.40.0_windows_386.msi',
  'gh_2.40.0_windows_386.zip',
  'gh_2.40.0_windows_amd64.msi',
  'gh_2.40.0_windows_amd64.zip',
  'gh_2.40.0_windows_arm64.zip',
];
export const lazygit = [
  'checksums.txt',
  'lazygit_0.40.2_Darwin_arm64.tar.gz',
  'lazygit_0.40.2_Darwin_x86_64.tar.gz',
  'lazygit_0.40.2_freebsd_32-bit.tar.gz',
  'lazygit_0.40.2_freebsd_x86_64.tar.gz',
  'lazygit_0.40.2_Linux_32-bit.tar.gz',
  'lazygit_0.40.2_Linux_arm64.tar.gz',
  'lazygit_0.40.2_Linux_armv6.tar.gz',
  'lazygit_0.40.2_Linux_x86_64.tar.gz',
  'lazygit_0.40.2_Windows_32-bit.zip',
  'lazygit_0.40.2_Windows_arm64.zip',
  'lazygit_0.40.2_Windows_x86_64.zip',
];
export const jq = [
  'jq-1.7.1.tar.gz',
  'jq-1.7.1.zip',
  'jq-linux-amd64',
  'jq-linux-arm64',
  'jq-linux-armel',
  'jq-linux-armhf',
  'jq-linux-i386',
  'jq-linux64',
  'jq-macos-amd64',
  'jq-macos-arm64',
  'jq-osx-amd64',
  'jq-win64.exe',
  'jq-windows-amd64.exe',
  'jq-windows-i386.exe',
  'sha256sum.txt',
];
