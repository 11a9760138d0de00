// Real release asset lists (part 2 of 2), as each project publishes them.
import { type Project, triples } from './real-releases.fixtures';

// biome-ignore format: the asset lists keep several names per line, grouped as each project publishes them
export const PROJECTS_2: Project[] = [
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
      // The 2.17 build ties on score; the shorter name wins.
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
