// Real release asset lists (part 1 of 2), as each project publishes them.
import { type Project, triples } from './real-releases.fixtures';

// biome-ignore format: the asset lists keep several names per line, grouped as each project publishes them
export const PROJECTS_1: Project[] = [
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
    // The score gives zip +5 on top of the archive +10 on every OS, so the .zip outranks the .tar.gz of the same build.
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
];
