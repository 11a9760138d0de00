// Asset choice on the real release asset lists of well-known projects (spec github-releases §8).
// Each list is the complete asset list of one release as the project publishes it: every OS/arch
// variant, checksum and signature files, OS packages, SBOMs, installer scripts. The expected choices
// follow §8.8 (hard filters, then score, then shortest name, then code-point order); they were written
// from the spec, not copied from the picker's output.
import { describe, expect, it } from 'vitest';
import { NoMatchingAssetError, pickAsset, rankAssets, type PickTarget, type ReleaseAsset } from './picker';

const L = (arch: PickTarget['arch'], libc: PickTarget['libc']): PickTarget => ({ os: 'linux', arch, libc });
const TARGETS = {
  amd64Glibc: L('amd64', 'glibc'),
  amd64Musl: L('amd64', 'musl'),
  arm64Glibc: L('arm64', 'glibc'),
  arm64Musl: L('arm64', 'musl'),
} as const;
type TargetKey = keyof typeof TARGETS;

interface Project {
  /** owner/name on GitHub; the picker's toolName is the repo name, as the installer and the update check pass it. */
  repo: string;
  tag: string;
  assets: string[];
  /** Expected choice per target; null = no asset fits, the picker must throw NoMatchingAssetError. */
  expect: Record<TargetKey, string | null>;
  /** Expected rejection reasons on linux/amd64/glibc. */
  rejected: Record<string, string | RegExp>;
}

// Target triples as Rust projects publish them.
const triples = (prefix: string, list: string[], ext = '.tar.gz') => list.map((t) => `${prefix}${t}${t.includes('windows') ? '.zip' : ext}`);

const PROJECTS: Project[] = [
  {
    // starship/starship v1.21.1: every archive has a .sha256; Windows also ships .msi.
    repo: 'starship/starship',
    tag: 'v1.21.1',
    assets: [
      'aarch64-apple-darwin.tar.gz', 'aarch64-pc-windows-msvc.msi', 'aarch64-pc-windows-msvc.zip', 'aarch64-unknown-linux-musl.tar.gz',
      'arm-unknown-linux-musleabihf.tar.gz', 'i686-pc-windows-msvc.msi', 'i686-pc-windows-msvc.zip', 'i686-unknown-linux-musl.tar.gz',
      'x86_64-apple-darwin.tar.gz', 'x86_64-pc-windows-msvc.msi', 'x86_64-pc-windows-msvc.zip', 'x86_64-unknown-freebsd.tar.gz',
      'x86_64-unknown-linux-gnu.tar.gz', 'x86_64-unknown-linux-musl.tar.gz',
    ].flatMap((s) => [`starship-${s}`, `starship-${s}.sha256`]),
    expect: {
      amd64Glibc: 'starship-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'starship-x86_64-unknown-linux-musl.tar.gz',
      // Only a musl build for aarch64: it runs on glibc hosts too and is the only arm64 candidate.
      arm64Glibc: 'starship-aarch64-unknown-linux-musl.tar.gz',
      arm64Musl: 'starship-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'starship-x86_64-unknown-linux-gnu.tar.gz.sha256': 'denied extension .sha256',
      'starship-x86_64-pc-windows-msvc.msi': 'denied extension .msi',
      'starship-x86_64-unknown-freebsd.tar.gz': 'other OS',
      'starship-x86_64-apple-darwin.tar.gz': 'other OS (darwin)',
      'starship-i686-unknown-linux-musl.tar.gz': 'other arch (386)',
      'starship-arm-unknown-linux-musleabihf.tar.gz': 'other arch (arm)',
    },
  },
  {
    // sharkdp/fd v10.2.0: versioned triples, Debian packages for gnu and musl.
    repo: 'sharkdp/fd',
    tag: 'v10.2.0',
    assets: [
      ...triples('fd-v10.2.0-', [
        'aarch64-apple-darwin', 'aarch64-pc-windows-msvc', 'aarch64-unknown-linux-gnu', 'aarch64-unknown-linux-musl', 'arm-unknown-linux-gnueabihf',
        'arm-unknown-linux-musleabihf', 'i686-pc-windows-msvc', 'i686-unknown-linux-gnu', 'i686-unknown-linux-musl', 'x86_64-apple-darwin',
        'x86_64-pc-windows-gnu', 'x86_64-pc-windows-msvc', 'x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl',
      ]),
      'fd-musl_10.2.0_amd64.deb', 'fd-musl_10.2.0_arm64.deb', 'fd-musl_10.2.0_armhf.deb', 'fd-musl_10.2.0_i686.deb',
      'fd_10.2.0_amd64.deb', 'fd_10.2.0_arm64.deb', 'fd_10.2.0_armhf.deb', 'fd_10.2.0_i686.deb',
    ],
    expect: {
      amd64Glibc: 'fd-v10.2.0-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'fd-v10.2.0-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'fd-v10.2.0-aarch64-unknown-linux-gnu.tar.gz',
      arm64Musl: 'fd-v10.2.0-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'fd_10.2.0_amd64.deb': 'denied extension .deb',
      'fd-musl_10.2.0_amd64.deb': 'denied extension .deb',
      'fd-v10.2.0-x86_64-pc-windows-gnu.zip': 'other OS (windows)',
      'fd-v10.2.0-aarch64-unknown-linux-gnu.tar.gz': 'other arch (arm64)',
    },
  },
  {
    // mikefarah/yq v4.44.6: bare binaries and tar.gz per platform, checksum files without an extension,
    // a helper script and a man-page tarball.
    repo: 'mikefarah/yq',
    tag: 'v4.44.6',
    assets: [
      'checksums', 'checksums-bsd', 'checksums_hashes_order', 'extract-checksum.sh',
      ...['darwin_amd64', 'darwin_arm64', 'freebsd_386', 'freebsd_amd64', 'freebsd_arm', 'linux_386', 'linux_amd64', 'linux_arm', 'linux_arm64',
        'linux_mips', 'linux_mips64', 'linux_mips64le', 'linux_mipsle', 'linux_ppc64', 'linux_ppc64le', 'linux_riscv64', 'linux_s390x',
        'netbsd_386', 'netbsd_amd64', 'netbsd_arm', 'openbsd_386', 'openbsd_amd64'].flatMap((p) => [`yq_${p}`, `yq_${p}.tar.gz`]),
      'yq_windows_386.exe', 'yq_windows_386.zip', 'yq_windows_amd64.exe', 'yq_windows_amd64.zip', 'yq_man_page_only.tar.gz',
    ],
    expect: {
      amd64Glibc: 'yq_linux_amd64.tar.gz',
      amd64Musl: 'yq_linux_amd64.tar.gz',
      arm64Glibc: 'yq_linux_arm64.tar.gz',
      arm64Musl: 'yq_linux_arm64.tar.gz',
    },
    rejected: {
      checksums: 'checksum file',
      'checksums-bsd': 'checksum file',
      checksums_hashes_order: 'checksum file',
      'extract-checksum.sh': 'checksum file',
      'yq_man_page_only.tar.gz': 'no OS token (an asset names linux)',
      yq_linux_ppc64le: 'other arch',
      yq_linux_mips64le: 'other arch',
      yq_linux_arm: 'other arch (arm)',
      'yq_windows_amd64.exe': 'other OS (windows)',
      yq_freebsd_amd64: 'other OS',
    },
  },
  {
    // junegunn/fzf 0.56.3 (goreleaser).
    repo: 'junegunn/fzf',
    tag: 'v0.56.3',
    assets: [
      'fzf-0.56.3-darwin_amd64.tar.gz', 'fzf-0.56.3-darwin_arm64.tar.gz', 'fzf-0.56.3-freebsd_amd64.tar.gz', 'fzf-0.56.3-linux_amd64.tar.gz',
      'fzf-0.56.3-linux_arm64.tar.gz', 'fzf-0.56.3-linux_armv5.tar.gz', 'fzf-0.56.3-linux_armv6.tar.gz', 'fzf-0.56.3-linux_armv7.tar.gz',
      'fzf-0.56.3-linux_loong64.tar.gz', 'fzf-0.56.3-linux_ppc64le.tar.gz', 'fzf-0.56.3-linux_s390x.tar.gz', 'fzf-0.56.3-openbsd_amd64.tar.gz',
      'fzf-0.56.3-windows_amd64.zip', 'fzf-0.56.3-windows_arm64.zip', 'fzf-0.56.3-windows_armv5.zip', 'fzf-0.56.3-windows_armv6.zip',
      'fzf-0.56.3-windows_armv7.zip', 'fzf_0.56.3_checksums.txt',
    ],
    expect: {
      amd64Glibc: 'fzf-0.56.3-linux_amd64.tar.gz',
      amd64Musl: 'fzf-0.56.3-linux_amd64.tar.gz',
      arm64Glibc: 'fzf-0.56.3-linux_arm64.tar.gz',
      arm64Musl: 'fzf-0.56.3-linux_arm64.tar.gz',
    },
    rejected: {
      'fzf_0.56.3_checksums.txt': 'checksum file',
      'fzf-0.56.3-linux_loong64.tar.gz': 'other arch',
      'fzf-0.56.3-linux_armv7.tar.gz': 'other arch (arm)',
      'fzf-0.56.3-openbsd_amd64.tar.gz': 'other OS',
    },
  },
  {
    // astral-sh/uv 0.5.11 (cargo-dist): .sha256 per archive, sha256.sum, dist-manifest.json, installer scripts, source tarball.
    repo: 'astral-sh/uv',
    tag: '0.5.11',
    assets: [
      ...[
        'aarch64-apple-darwin.tar.gz', 'aarch64-pc-windows-msvc.zip', 'aarch64-unknown-linux-gnu.tar.gz', 'aarch64-unknown-linux-musl.tar.gz',
        'arm-unknown-linux-musleabihf.tar.gz', 'armv7-unknown-linux-gnueabihf.tar.gz', 'armv7-unknown-linux-musleabihf.tar.gz',
        'i686-pc-windows-msvc.zip', 'i686-unknown-linux-gnu.tar.gz', 'i686-unknown-linux-musl.tar.gz', 'powerpc64-unknown-linux-gnu.tar.gz',
        'powerpc64le-unknown-linux-gnu.tar.gz', 's390x-unknown-linux-gnu.tar.gz', 'x86_64-apple-darwin.tar.gz', 'x86_64-pc-windows-msvc.zip',
        'x86_64-unknown-linux-gnu.tar.gz', 'x86_64-unknown-linux-musl.tar.gz',
      ].flatMap((s) => [`uv-${s}`, `uv-${s}.sha256`]),
      'dist-manifest.json', 'sha256.sum', 'source.tar.gz', 'source.tar.gz.sha256', 'uv-installer.ps1', 'uv-installer.sh',
    ],
    expect: {
      amd64Glibc: 'uv-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'uv-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'uv-aarch64-unknown-linux-gnu.tar.gz',
      arm64Musl: 'uv-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'uv-x86_64-unknown-linux-gnu.tar.gz.sha256': 'denied extension .sha256',
      'dist-manifest.json': 'denied extension .json',
      // Not caught by the checksum-name rule (`sha256` without `sum`), but `.sum` is not on the allowlist.
      'sha256.sum': 'checksum file',
      'source.tar.gz': 'source archive',
      'source.tar.gz.sha256': 'denied extension .sha256',
      'uv-installer.sh': 'extension .sh is not on the allowlist',
      'uv-installer.ps1': 'extension .ps1 is not on the allowlist',
      'uv-powerpc64le-unknown-linux-gnu.tar.gz': 'other arch',
      'uv-s390x-unknown-linux-gnu.tar.gz': 'other arch',
    },
  },
  {
    // gohugoio/hugo v0.139.0: standard, extended and extended_withdeploy editions, legacy Linux-64bit names, .deb and .pkg.
    repo: 'gohugoio/hugo',
    tag: 'v0.139.0',
    assets: [
      'hugo_0.139.0_checksums.txt', 'hugo_0.139.0_darwin-universal.pkg', 'hugo_0.139.0_darwin-universal.tar.gz', 'hugo_0.139.0_dragonfly-amd64.tar.gz',
      'hugo_0.139.0_freebsd-amd64.tar.gz', 'hugo_0.139.0_Linux-64bit.tar.gz', 'hugo_0.139.0_linux-amd64.deb', 'hugo_0.139.0_linux-amd64.tar.gz',
      'hugo_0.139.0_linux-arm.tar.gz', 'hugo_0.139.0_linux-arm64.deb', 'hugo_0.139.0_linux-arm64.tar.gz', 'hugo_0.139.0_netbsd-amd64.tar.gz',
      'hugo_0.139.0_openbsd-amd64.tar.gz', 'hugo_0.139.0_solaris-amd64.tar.gz', 'hugo_0.139.0_windows-amd64.zip', 'hugo_0.139.0_windows-arm64.zip',
      'hugo_extended_0.139.0_darwin-universal.pkg', 'hugo_extended_0.139.0_darwin-universal.tar.gz', 'hugo_extended_0.139.0_Linux-64bit.tar.gz',
      'hugo_extended_0.139.0_linux-amd64.deb', 'hugo_extended_0.139.0_linux-amd64.tar.gz', 'hugo_extended_0.139.0_linux-arm64.deb',
      'hugo_extended_0.139.0_linux-arm64.tar.gz', 'hugo_extended_0.139.0_windows-amd64.zip',
      'hugo_extended_withdeploy_0.139.0_darwin-universal.pkg', 'hugo_extended_withdeploy_0.139.0_darwin-universal.tar.gz',
      'hugo_extended_withdeploy_0.139.0_linux-amd64.deb', 'hugo_extended_withdeploy_0.139.0_linux-amd64.tar.gz',
      'hugo_extended_withdeploy_0.139.0_linux-arm64.deb', 'hugo_extended_withdeploy_0.139.0_linux-arm64.tar.gz',
      'hugo_extended_withdeploy_0.139.0_windows-amd64.zip',
    ],
    // The plain edition gets the stem bonus (tool name + version + platform only); "extended" is an extra word.
    expect: {
      amd64Glibc: 'hugo_0.139.0_linux-amd64.tar.gz',
      amd64Musl: 'hugo_0.139.0_linux-amd64.tar.gz',
      arm64Glibc: 'hugo_0.139.0_linux-arm64.tar.gz',
      arm64Musl: 'hugo_0.139.0_linux-arm64.tar.gz',
    },
    rejected: {
      'hugo_0.139.0_checksums.txt': 'checksum file',
      'hugo_0.139.0_linux-amd64.deb': 'denied extension .deb',
      'hugo_extended_0.139.0_darwin-universal.pkg': 'denied extension .pkg',
      'hugo_0.139.0_dragonfly-amd64.tar.gz': 'other OS',
      'hugo_0.139.0_solaris-amd64.tar.gz': 'other OS',
      'hugo_0.139.0_darwin-universal.tar.gz': 'other OS (darwin)',
      'hugo_0.139.0_linux-arm.tar.gz': 'other arch (arm)',
    },
  },
  {
    // sharkdp/bat v0.24.0: no aarch64 musl build in this release.
    repo: 'sharkdp/bat',
    tag: 'v0.24.0',
    assets: [
      ...triples('bat-v0.24.0-', [
        'aarch64-unknown-linux-gnu', 'arm-unknown-linux-gnueabihf', 'arm-unknown-linux-musleabihf', 'i686-pc-windows-msvc', 'i686-unknown-linux-gnu',
        'i686-unknown-linux-musl', 'x86_64-apple-darwin', 'x86_64-pc-windows-gnu', 'x86_64-pc-windows-msvc', 'x86_64-unknown-linux-gnu',
        'x86_64-unknown-linux-musl',
      ]),
      'bat-musl_0.24.0_amd64.deb', 'bat-musl_0.24.0_armhf.deb', 'bat-musl_0.24.0_i686.deb',
      'bat_0.24.0_amd64.deb', 'bat_0.24.0_arm64.deb', 'bat_0.24.0_armhf.deb', 'bat_0.24.0_i686.deb',
    ],
    expect: {
      amd64Glibc: 'bat-v0.24.0-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'bat-v0.24.0-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'bat-v0.24.0-aarch64-unknown-linux-gnu.tar.gz',
      arm64Musl: null,
    },
    rejected: {
      'bat_0.24.0_amd64.deb': 'denied extension .deb',
      'bat-musl_0.24.0_amd64.deb': 'denied extension .deb',
      'bat-v0.24.0-i686-unknown-linux-musl.tar.gz': 'other arch (386)',
      'bat-v0.24.0-x86_64-pc-windows-msvc.zip': 'other OS (windows)',
    },
  },
  {
    // dandavison/delta 0.18.2: Debian packages are named git-delta.
    repo: 'dandavison/delta',
    tag: '0.18.2',
    assets: [
      ...triples('delta-0.18.2-', [
        'aarch64-apple-darwin', 'aarch64-unknown-linux-gnu', 'arm-unknown-linux-gnueabihf', 'i686-unknown-linux-gnu', 'x86_64-apple-darwin',
        'x86_64-pc-windows-msvc', 'x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl',
      ]),
      'git-delta-musl_0.18.2_amd64.deb', 'git-delta_0.18.2_amd64.deb', 'git-delta_0.18.2_arm64.deb', 'git-delta_0.18.2_armhf.deb', 'git-delta_0.18.2_i386.deb',
    ],
    expect: {
      amd64Glibc: 'delta-0.18.2-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'delta-0.18.2-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'delta-0.18.2-aarch64-unknown-linux-gnu.tar.gz',
      arm64Musl: null,
    },
    rejected: {
      'git-delta_0.18.2_amd64.deb': 'denied extension .deb',
      'git-delta-musl_0.18.2_amd64.deb': 'denied extension .deb',
      'delta-0.18.2-i686-unknown-linux-gnu.tar.gz': 'other arch (386)',
    },
  },
  {
    // ajeetdsouza/zoxide v0.9.6: musl-only Linux builds, an Android build, Debian packages.
    repo: 'ajeetdsouza/zoxide',
    tag: 'v0.9.6',
    assets: [
      ...triples('zoxide-0.9.6-', [
        'aarch64-apple-darwin', 'aarch64-linux-android', 'aarch64-pc-windows-msvc', 'aarch64-unknown-linux-musl', 'arm-unknown-linux-musleabihf',
        'armv7-unknown-linux-musleabihf', 'i686-unknown-linux-musl', 'x86_64-apple-darwin', 'x86_64-pc-windows-msvc', 'x86_64-unknown-linux-musl',
      ]),
      'zoxide_0.9.6-1_amd64.deb', 'zoxide_0.9.6-1_arm64.deb', 'zoxide_0.9.6-1_armhf.deb', 'zoxide_0.9.6-1_i386.deb',
    ],
    expect: {
      amd64Glibc: 'zoxide-0.9.6-x86_64-unknown-linux-musl.tar.gz',
      amd64Musl: 'zoxide-0.9.6-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'zoxide-0.9.6-aarch64-unknown-linux-musl.tar.gz',
      arm64Musl: 'zoxide-0.9.6-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'zoxide-0.9.6-aarch64-linux-android.tar.gz': 'android build',
      'zoxide_0.9.6-1_amd64.deb': 'denied extension .deb',
      'zoxide-0.9.6-armv7-unknown-linux-musleabihf.tar.gz': 'other arch (arm)',
    },
  },
  {
    // eza-community/eza v0.20.13: unversioned names, each platform as .tar.gz and .zip, completions and man pages.
    repo: 'eza-community/eza',
    tag: 'v0.20.13',
    assets: [
      ...['aarch64-unknown-linux-gnu', 'arm-unknown-linux-gnueabihf', 'x86_64-pc-windows-gnu', 'x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl']
        .flatMap((t) => [`eza_${t}.tar.gz`, `eza_${t}.zip`]),
      'completions-0.20.13.tar.gz', 'man-0.20.13.tar.gz',
    ],
    // §8.8 gives zip +5 on top of the archive +10 on every OS, so the .zip outranks the .tar.gz of the same build.
    expect: {
      amd64Glibc: 'eza_x86_64-unknown-linux-gnu.zip',
      amd64Musl: 'eza_x86_64-unknown-linux-musl.zip',
      arm64Glibc: 'eza_aarch64-unknown-linux-gnu.zip',
      arm64Musl: null,
    },
    rejected: {
      'completions-0.20.13.tar.gz': 'no OS token (an asset names linux)',
      'man-0.20.13.tar.gz': 'no OS token (an asset names linux)',
      'eza_x86_64-pc-windows-gnu.zip': 'other OS (windows)',
      'eza_arm-unknown-linux-gnueabihf.tar.gz': 'other arch (arm)',
    },
  },
  {
    // casey/just 1.38.0: musl-only Linux builds and one SHA256SUMS file.
    repo: 'casey/just',
    tag: '1.38.0',
    assets: [
      ...triples('just-1.38.0-', [
        'aarch64-apple-darwin', 'aarch64-pc-windows-msvc', 'aarch64-unknown-linux-musl', 'arm-unknown-linux-musleabihf', 'armv7-unknown-linux-musleabihf',
        'x86_64-apple-darwin', 'x86_64-pc-windows-msvc', 'x86_64-unknown-linux-musl',
      ]),
      'SHA256SUMS',
    ],
    expect: {
      amd64Glibc: 'just-1.38.0-x86_64-unknown-linux-musl.tar.gz',
      amd64Musl: 'just-1.38.0-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'just-1.38.0-aarch64-unknown-linux-musl.tar.gz',
      arm64Musl: 'just-1.38.0-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      SHA256SUMS: 'checksum file',
      'just-1.38.0-arm-unknown-linux-musleabihf.tar.gz': 'other arch (arm)',
    },
  },
  {
    // derailed/k9s v0.32.7 (goreleaser): capitalised OS names, apk/deb/rpm packages, checksums.sha256, SBOMs.
    repo: 'derailed/k9s',
    tag: 'v0.32.7',
    assets: [
      'checksums.sha256',
      ...['Darwin_amd64', 'Darwin_arm64', 'Freebsd_amd64', 'Freebsd_arm64', 'Linux_amd64', 'Linux_arm64', 'Linux_armv7', 'Linux_ppc64le', 'Linux_s390x']
        .flatMap((p) => [`k9s_${p}.tar.gz`, `k9s_${p}.tar.gz.sbom.json`]),
      ...['Windows_amd64', 'Windows_arm64', 'Windows_armv7'].flatMap((p) => [`k9s_${p}.zip`, `k9s_${p}.zip.sbom.json`]),
      ...['amd64', 'arm64', 'armv7', 'ppc64le', 's390x'].flatMap((a) => [`k9s_linux_${a}.apk`, `k9s_linux_${a}.deb`, `k9s_linux_${a}.rpm`]),
    ],
    expect: {
      amd64Glibc: 'k9s_Linux_amd64.tar.gz',
      amd64Musl: 'k9s_Linux_amd64.tar.gz',
      arm64Glibc: 'k9s_Linux_arm64.tar.gz',
      arm64Musl: 'k9s_Linux_arm64.tar.gz',
    },
    rejected: {
      'checksums.sha256': 'checksum file',
      'k9s_Linux_amd64.tar.gz.sbom.json': 'denied extension .json',
      'k9s_linux_amd64.apk': 'denied extension .apk',
      'k9s_linux_amd64.deb': 'denied extension .deb',
      'k9s_linux_amd64.rpm': 'denied extension .rpm',
      'k9s_Freebsd_amd64.tar.gz': 'other OS',
      'k9s_Linux_s390x.tar.gz': 'other arch',
    },
  },
  {
    // gitleaks/gitleaks v8.21.2: x64 / x32 arch names.
    repo: 'gitleaks/gitleaks',
    tag: 'v8.21.2',
    assets: [
      'gitleaks_8.21.2_checksums.txt', 'gitleaks_8.21.2_darwin_arm64.tar.gz', 'gitleaks_8.21.2_darwin_x64.tar.gz', 'gitleaks_8.21.2_linux_arm64.tar.gz',
      'gitleaks_8.21.2_linux_armv6.tar.gz', 'gitleaks_8.21.2_linux_armv7.tar.gz', 'gitleaks_8.21.2_linux_x32.tar.gz', 'gitleaks_8.21.2_linux_x64.tar.gz',
      'gitleaks_8.21.2_windows_armv6.zip', 'gitleaks_8.21.2_windows_armv7.zip', 'gitleaks_8.21.2_windows_x32.zip', 'gitleaks_8.21.2_windows_x64.zip',
    ],
    expect: {
      amd64Glibc: 'gitleaks_8.21.2_linux_x64.tar.gz',
      amd64Musl: 'gitleaks_8.21.2_linux_x64.tar.gz',
      arm64Glibc: 'gitleaks_8.21.2_linux_arm64.tar.gz',
      arm64Musl: 'gitleaks_8.21.2_linux_arm64.tar.gz',
    },
    rejected: {
      'gitleaks_8.21.2_checksums.txt': 'checksum file',
      'gitleaks_8.21.2_linux_x32.tar.gz': 'other arch (386)',
      'gitleaks_8.21.2_linux_armv6.tar.gz': 'other arch (arm)',
    },
  },
  {
    // aquasecurity/trivy v0.58.0: 64bit/32bit/ARM/ARM64 names, deb/rpm, cosign .pem/.sig next to every file.
    repo: 'aquasecurity/trivy',
    tag: 'v0.58.0',
    assets: [
      'trivy_0.58.0_checksums.txt',
      'trivy_0.58.0_FreeBSD-32bit.tar.gz', 'trivy_0.58.0_FreeBSD-64bit.tar.gz', 'trivy_0.58.0_FreeBSD-ARM.tar.gz', 'trivy_0.58.0_FreeBSD-ARM64.tar.gz',
      ...['32bit', '64bit', 'ARM', 'ARM64', 'PPC64LE', 's390x'].flatMap((a) => ['deb', 'rpm', 'tar.gz'].map((e) => `trivy_0.58.0_Linux-${a}.${e}`)),
      'trivy_0.58.0_macOS-64bit.tar.gz', 'trivy_0.58.0_macOS-ARM64.tar.gz', 'trivy_0.58.0_windows-64bit.zip',
    ].flatMap((n) => [n, `${n}.pem`, `${n}.sig`]),
    expect: {
      amd64Glibc: 'trivy_0.58.0_Linux-64bit.tar.gz',
      amd64Musl: 'trivy_0.58.0_Linux-64bit.tar.gz',
      arm64Glibc: 'trivy_0.58.0_Linux-ARM64.tar.gz',
      arm64Musl: 'trivy_0.58.0_Linux-ARM64.tar.gz',
    },
    rejected: {
      'trivy_0.58.0_checksums.txt': 'checksum file',
      'trivy_0.58.0_checksums.txt.sig': 'checksum file',
      'trivy_0.58.0_Linux-64bit.tar.gz.pem': 'denied extension .pem',
      'trivy_0.58.0_Linux-64bit.tar.gz.sig': 'denied extension .sig',
      'trivy_0.58.0_Linux-64bit.deb': 'denied extension .deb',
      'trivy_0.58.0_Linux-64bit.rpm': 'denied extension .rpm',
      'trivy_0.58.0_Linux-32bit.tar.gz': 'other arch (386)',
      'trivy_0.58.0_Linux-ARM.tar.gz': 'other arch (arm)',
      'trivy_0.58.0_Linux-ARM64.tar.gz': 'other arch (arm64)',
      'trivy_0.58.0_Linux-PPC64LE.tar.gz': 'other arch',
      'trivy_0.58.0_FreeBSD-64bit.tar.gz': 'other OS',
      'trivy_0.58.0_macOS-64bit.tar.gz': 'other OS (darwin)',
    },
  },
  {
    // bootandy/dust v1.1.1.
    repo: 'bootandy/dust',
    tag: 'v1.1.1',
    assets: [
      ...triples('dust-v1.1.1-', [
        'aarch64-unknown-linux-gnu', 'aarch64-unknown-linux-musl', 'arm-unknown-linux-gnueabihf', 'arm-unknown-linux-musleabi', 'i686-pc-windows-gnu',
        'i686-pc-windows-msvc', 'i686-unknown-linux-gnu', 'i686-unknown-linux-musl', 'x86_64-apple-darwin', 'x86_64-pc-windows-gnu',
        'x86_64-pc-windows-msvc', 'x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl',
      ]),
      'du-dust_1.1.1-1_amd64.deb', 'du-dust_1.1.1-1_arm64.deb', 'du-dust_1.1.1-1_armhf.deb', 'du-dust_1.1.1-1_i386.deb',
    ],
    expect: {
      amd64Glibc: 'dust-v1.1.1-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'dust-v1.1.1-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'dust-v1.1.1-aarch64-unknown-linux-gnu.tar.gz',
      arm64Musl: 'dust-v1.1.1-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'du-dust_1.1.1-1_amd64.deb': 'denied extension .deb',
      'dust-v1.1.1-arm-unknown-linux-musleabi.tar.gz': 'other arch (arm)',
    },
  },
  {
    // chmln/sd v1.0.0.
    repo: 'chmln/sd',
    tag: 'v1.0.0',
    assets: triples('sd-v1.0.0-', [
      'aarch64-apple-darwin', 'aarch64-unknown-linux-musl', 'arm-unknown-linux-gnueabihf', 'armv7-unknown-linux-gnueabihf', 'x86_64-apple-darwin',
      'x86_64-pc-windows-gnu', 'x86_64-pc-windows-msvc', 'x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl',
    ]),
    expect: {
      amd64Glibc: 'sd-v1.0.0-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'sd-v1.0.0-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'sd-v1.0.0-aarch64-unknown-linux-musl.tar.gz',
      arm64Musl: 'sd-v1.0.0-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'sd-v1.0.0-armv7-unknown-linux-gnueabihf.tar.gz': 'other arch (arm)',
      'sd-v1.0.0-x86_64-pc-windows-gnu.zip': 'other OS (windows)',
    },
  },
  {
    // lsd-rs/lsd v1.1.5.
    repo: 'lsd-rs/lsd',
    tag: 'v1.1.5',
    assets: [
      ...triples('lsd-v1.1.5-', [
        'aarch64-apple-darwin', 'aarch64-unknown-linux-gnu', 'aarch64-unknown-linux-musl', 'arm-unknown-linux-gnueabihf', 'arm-unknown-linux-musleabihf',
        'i686-pc-windows-gnu', 'i686-pc-windows-msvc', 'i686-unknown-linux-gnu', 'i686-unknown-linux-musl', 'x86_64-apple-darwin',
        'x86_64-pc-windows-gnu', 'x86_64-pc-windows-msvc', 'x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl',
      ]),
      'lsd-musl_1.1.5_amd64.deb', 'lsd-musl_1.1.5_arm64.deb', 'lsd-musl_1.1.5_armhf.deb', 'lsd-musl_1.1.5_i686.deb',
      'lsd_1.1.5_amd64.deb', 'lsd_1.1.5_arm64.deb', 'lsd_1.1.5_armhf.deb', 'lsd_1.1.5_i686.deb',
    ],
    expect: {
      amd64Glibc: 'lsd-v1.1.5-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'lsd-v1.1.5-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'lsd-v1.1.5-aarch64-unknown-linux-gnu.tar.gz',
      arm64Musl: 'lsd-v1.1.5-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'lsd_1.1.5_amd64.deb': 'denied extension .deb',
      'lsd-musl_1.1.5_amd64.deb': 'denied extension .deb',
      'lsd-v1.1.5-i686-pc-windows-gnu.zip': 'other OS (windows)',
    },
  },
  {
    // ClementTsang/bottom 0.10.2 (binary btm): unversioned triples, an old-glibc (2.17) build, FreeBSD per release, deb/rpm/msi, a choco zip.
    repo: 'ClementTsang/bottom',
    tag: '0.10.2',
    assets: [
      ...triples('bottom_', [
        'aarch64-apple-darwin', 'aarch64-unknown-linux-gnu', 'aarch64-unknown-linux-musl', 'armv7-unknown-linux-gnueabihf', 'armv7-unknown-linux-musleabihf',
        'i686-pc-windows-msvc', 'i686-unknown-linux-gnu', 'i686-unknown-linux-musl', 'powerpc64le-unknown-linux-gnu', 'riscv64gc-unknown-linux-gnu',
        'x86_64-apple-darwin', 'x86_64-pc-windows-gnu', 'x86_64-pc-windows-msvc', 'x86_64-unknown-freebsd-13-3', 'x86_64-unknown-freebsd-14-1',
        'x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-gnu-2-17', 'x86_64-unknown-linux-musl',
      ]),
      'bottom_0.10.2-1_amd64.deb', 'bottom_0.10.2-1_arm64.deb', 'bottom_0.10.2-1_armhf.deb', 'bottom-musl_0.10.2-1_amd64.deb',
      'bottom-0.10.2-1.x86_64.rpm', 'bottom_x86_64_installer.msi', 'choco.zip',
    ],
    expect: {
      // The 2.17 build ties on score; the shorter name wins (§8.7).
      amd64Glibc: 'bottom_x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'bottom_x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'bottom_aarch64-unknown-linux-gnu.tar.gz',
      arm64Musl: 'bottom_aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'bottom_0.10.2-1_amd64.deb': 'denied extension .deb',
      'bottom-0.10.2-1.x86_64.rpm': 'denied extension .rpm',
      'bottom_x86_64_installer.msi': 'denied extension .msi',
      'choco.zip': 'no OS token (an asset names linux)',
      'bottom_x86_64-unknown-freebsd-14-1.tar.gz': 'other OS',
      'bottom_riscv64gc-unknown-linux-gnu.tar.gz': 'other arch',
      'bottom_powerpc64le-unknown-linux-gnu.tar.gz': 'other arch',
    },
  },
  {
    // jdx/mise v2024.12.14: bare binaries and tar.gz/tar.xz/tar.zst per platform, gnu without a libc token, SHASUMS files with PGP signatures.
    repo: 'jdx/mise',
    tag: 'v2024.12.14',
    assets: [
      ...['linux-arm64', 'linux-arm64-musl', 'linux-armv7', 'linux-armv7-musl', 'linux-x64', 'linux-x64-musl', 'macos-arm64', 'macos-x64']
        .flatMap((p) => ['', '.tar.gz', '.tar.xz', '.tar.zst'].map((e) => `mise-v2024.12.14-${p}${e}`)),
      'mise-v2024.12.14-windows-arm64.zip', 'mise-v2024.12.14-windows-x64.zip',
      'SHASUMS256.asc', 'SHASUMS256.txt', 'SHASUMS512.asc', 'SHASUMS512.txt',
    ],
    // Same score for the three tar formats; same length for .tar.gz and .tar.xz; code-point order picks .tar.gz.
    expect: {
      amd64Glibc: 'mise-v2024.12.14-linux-x64.tar.gz',
      amd64Musl: 'mise-v2024.12.14-linux-x64-musl.tar.gz',
      arm64Glibc: 'mise-v2024.12.14-linux-arm64.tar.gz',
      arm64Musl: 'mise-v2024.12.14-linux-arm64-musl.tar.gz',
    },
    rejected: {
      // `SHASUMS256` / `SHASUMS512` name checksum files (digits after SHASUMS), whatever the extension.
      'SHASUMS256.txt': 'checksum file',
      'SHASUMS256.asc': 'checksum file',
      'SHASUMS512.txt': 'checksum file',
      'mise-v2024.12.14-windows-x64.zip': 'other OS (windows)',
      'mise-v2024.12.14-macos-x64.tar.gz': 'other OS (darwin)',
      'mise-v2024.12.14-linux-armv7.tar.gz': 'other arch (arm)',
    },
  },
  {
    // nushell/nushell 0.100.0: the assets are named nu-…, not nushell-…, so the tool name is not stripped and no stem bonus applies.
    repo: 'nushell/nushell',
    tag: '0.100.0',
    assets: [
      ...triples('nu-0.100.0-', [
        'aarch64-apple-darwin', 'aarch64-pc-windows-msvc', 'aarch64-unknown-linux-gnu', 'aarch64-unknown-linux-musl', 'armv7-unknown-linux-gnueabihf',
        'armv7-unknown-linux-musleabihf', 'loongarch64-unknown-linux-gnu', 'riscv64gc-unknown-linux-gnu', 'x86_64-apple-darwin', 'x86_64-pc-windows-msvc',
        'x86_64-unknown-linux-gnu', 'x86_64-unknown-linux-musl',
      ]),
      'nu-0.100.0-aarch64-pc-windows-msvc.msi', 'nu-0.100.0-x86_64-pc-windows-msvc.msi',
    ],
    expect: {
      amd64Glibc: 'nu-0.100.0-x86_64-unknown-linux-gnu.tar.gz',
      amd64Musl: 'nu-0.100.0-x86_64-unknown-linux-musl.tar.gz',
      arm64Glibc: 'nu-0.100.0-aarch64-unknown-linux-gnu.tar.gz',
      arm64Musl: 'nu-0.100.0-aarch64-unknown-linux-musl.tar.gz',
    },
    rejected: {
      'nu-0.100.0-x86_64-pc-windows-msvc.msi': 'denied extension .msi',
      'nu-0.100.0-loongarch64-unknown-linux-gnu.tar.gz': 'other arch',
      'nu-0.100.0-riscv64gc-unknown-linux-gnu.tar.gz': 'other arch',
      'nu-0.100.0-armv7-unknown-linux-gnueabihf.tar.gz': 'other arch (arm)',
    },
  },
];

const asAssets = (names: string[]): ReleaseAsset[] => names.map((name, i) => ({ id: i + 1, name, size: 4_000_000, state: 'uploaded' }));
const toolOf = (repo: string) => repo.split('/')[1];

/** Names that never install, whatever the target: checksums, signatures, SBOMs, OS packages, metadata. */
const NEVER = /\.(sha256|sha512|sig|asc|pem|json|txt|deb|rpm|apk|msi|pkg|sum)$|^(checksums|SHA256SUMS)/i;

describe.each(PROJECTS)('$repo $tag', (p) => {
  const assets = asAssets(p.assets);
  const opts = { toolName: toolOf(p.repo), version: p.tag };

  it('the asset list has no duplicates', () => {
    expect(new Set(p.assets).size).toBe(p.assets.length);
  });

  it.each(Object.keys(TARGETS) as TargetKey[])('%s', (key) => {
    const target = TARGETS[key];
    const want = p.expect[key];
    if (want === null) {
      let err: unknown;
      try {
        pickAsset(assets, target, opts);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(NoMatchingAssetError);
      const e = err as NoMatchingAssetError;
      expect(e.code).toBe('no_matching_asset');
      // §8.10: every asset is listed with its reason.
      expect(e.candidates.map((c) => c.name).sort()).toEqual([...p.assets].sort());
      return;
    }
    const r = pickAsset(assets, target, opts);
    expect(r.chosen.asset.name).toBe(want);
    // Every asset is either ranked or rejected, never both, never lost.
    expect([...r.ranked.map((s) => s.asset.name), ...r.rejected.map((x) => x.name)].sort()).toEqual([...p.assets].sort());
    // The choice is for this OS and arch, and never a gnu build on a musl host.
    expect(r.chosen.reasons).toContain(`os linux`);
    if (target.libc === 'musl') expect(r.chosen.libc).not.toBe('gnu');
    // Nothing that is not an installable archive/binary is ever ranked.
    for (const s of r.ranked) expect(s.asset.name).not.toMatch(NEVER);
  });

  it('checksum, signature, package and foreign assets are rejected with the expected reasons (linux/amd64/glibc)', () => {
    const { rejected } = rankAssets(assets, TARGETS.amd64Glibc, opts);
    const reasons = Object.fromEntries(rejected.map((x) => [x.name, x.reason]));
    for (const [name, reason] of Object.entries(p.rejected)) {
      expect(p.assets, `${name} is in the list`).toContain(name);
      if (typeof reason === 'string') expect(reasons[name], name).toBe(reason);
      else expect(reasons[name], name).toMatch(reason);
    }
    // Every asset matching NEVER is rejected, on every target.
    for (const target of Object.values(TARGETS)) {
      const r = rankAssets(assets, target, opts);
      const rejectedNames = new Set(r.rejected.map((x) => x.name));
      for (const name of p.assets.filter((n) => NEVER.test(n))) expect(rejectedNames.has(name), `${name} rejected on ${JSON.stringify(target)}`).toBe(true);
    }
  });
});

describe('notable decisions, with their scores', () => {
  const find = (repo: string) => PROJECTS.find((p) => p.repo === repo)!;
  const rank = (repo: string, key: TargetKey) => {
    const p = find(repo);
    return rankAssets(asAssets(p.assets), TARGETS[key], { toolName: toolOf(p.repo), version: p.tag }).ranked.map((s) => [s.asset.name, s.score] as const);
  };

  it('eza: the .zip outranks the .tar.gz of the same build by the zip bonus (+5, §8.8)', () => {
    expect(rank('eza-community/eza', 'amd64Glibc').slice(0, 4)).toEqual([
      ['eza_x86_64-unknown-linux-gnu.zip', 30 + 25 + 10 + 5 + 20],
      ['eza_x86_64-unknown-linux-gnu.tar.gz', 30 + 25 + 10 + 20],
      ['eza_x86_64-unknown-linux-musl.zip', 30 - 10 + 10 + 5 + 20],
      ['eza_x86_64-unknown-linux-musl.tar.gz', 30 - 10 + 10 + 20],
    ]);
  });

  it('bottom: the glibc 2.17 build ties and loses on length', () => {
    expect(rank('ClementTsang/bottom', 'amd64Glibc').slice(0, 2)).toEqual([
      ['bottom_x86_64-unknown-linux-gnu.tar.gz', 85],
      ['bottom_x86_64-unknown-linux-gnu-2-17.tar.gz', 85],
    ]);
  });

  it('hugo: the plain edition gets the stem bonus, extended and withdeploy do not; Linux-64bit is a weak match', () => {
    expect(rank('gohugoio/hugo', 'amd64Glibc')).toEqual([
      ['hugo_0.139.0_linux-amd64.tar.gz', 60],
      // Ties at 40 go to the shorter name (§8.7).
      ['hugo_0.139.0_Linux-64bit.tar.gz', 40],
      ['hugo_extended_0.139.0_linux-amd64.tar.gz', 40],
      ['hugo_extended_withdeploy_0.139.0_linux-amd64.tar.gz', 40],
      ['hugo_extended_0.139.0_Linux-64bit.tar.gz', 20],
    ]);
  });

  it('mise: gnu build without a libc token beats musl on glibc; tar.gz/tar.xz/tar.zst/bare tie-break by length then code point', () => {
    expect(rank('jdx/mise', 'amd64Glibc').map(([n]) => n).slice(0, 4)).toEqual([
      'mise-v2024.12.14-linux-x64.tar.gz', 'mise-v2024.12.14-linux-x64.tar.xz', 'mise-v2024.12.14-linux-x64.tar.zst', 'mise-v2024.12.14-linux-x64',
    ]);
  });

  it('nushell: assets named nu-… get no stem bonus under the repo name', () => {
    expect(rank('nushell/nushell', 'amd64Glibc')[0]).toEqual(['nu-0.100.0-x86_64-unknown-linux-gnu.tar.gz', 30 + 25 + 10]);
  });

  it('trivy: Linux-64bit is a weak amd64 match (+10), Linux-ARM64 a strong arm64 match', () => {
    expect(rank('aquasecurity/trivy', 'amd64Glibc')).toEqual([['trivy_0.58.0_Linux-64bit.tar.gz', 10 + 10 + 20]]);
    expect(rank('aquasecurity/trivy', 'arm64Glibc')).toEqual([['trivy_0.58.0_Linux-ARM64.tar.gz', 30 + 10 + 20]]);
  });
});
