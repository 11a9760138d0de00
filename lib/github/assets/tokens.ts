/**
 * Token tables and the ONE scoring table of the release-asset picker.
 * Every product value lives in `SCORES`; the picker reads it and prints it in each reason.
 */
import { globAtoms, matchWildcard, type WildcardAtom } from '../../core/wildcard';

export type TargetOs = 'linux' | 'darwin' | 'windows';
export type TargetArch = 'amd64' | 'arm64' | '386' | 'arm';
export type AssetLibc = 'gnu' | 'musl' | 'static';

/** Points per signal. "our value" entries are product choices; the rest follow mise. */
export const SCORES = {
  /** Arch token of the target (strong: x86_64, amd64, aarch64, …). Our value. */
  archStrong: 30,
  /** Only a weak token matches (64bit / 64-bit / 32bit, or a macOS `universal` build). Our value. */
  archWeak: 10,
  /** No arch token at all — accepted only when no asset names our arch (ubi/mise). */
  archNone: 0,
  /** glibc host: gnu / glibc / manylinux asset (mise). */
  glibcHostGnu: 25,
  /** glibc host: musl asset (mise). */
  glibcHostMusl: -10,
  /** musl host: explicit musl / musllinux / alpine asset. Our value (ubi prefers explicit musl). */
  muslHostMusl: 25,
  /** Unknown libc: musl builds are portable (aqua prefers them). Our value. */
  unknownHostMusl: 15,
  /** Unknown libc: gnu builds may not run. Our value. */
  unknownHostGnu: -10,
  /** static / linuxstatic on any Linux host. Our value. */
  static: 15,
  /** Any archive (tar family or zip) (mise). */
  archive: 10,
  /** zip, on top of `archive` (mise). */
  zip: 5,
  /** zip on Windows, on top of `archive`, instead of `zip` (mise). */
  zipWindows: 15,
  /** Stem is the tool name plus only platform/version tokens (mise). */
  stem: 20,
  /** Name carries a debug or test token. Our value. */
  debugOrTest: -40,
} as const;

export const DEFAULT_MAX_ASSET_BYTES = 200 * 1024 * 1024;

/** Separators between tokens in asset names. */
const SEP = '[-_.\\s/+]';

/** Case-insensitive regex matching any of `sources` as a whole token. */
export function tokenRegex(sources: readonly string[], flags = 'i'): RegExp {
  return new RegExp(`(?:^|${SEP})(?:${sources.join('|')})(?=$|${SEP})`, flags);
}

/** OS tokens. Regex sources, lower case, matched with the `i` flag on token boundaries. */
export const OS_TOKENS: Record<TargetOs, readonly string[]> = {
  linux: ['linux', 'linux64', 'linux32', 'linuxstatic', 'manylinux(?:\\d+|_\\d+_\\d+)?', 'musllinux(?:_\\d+_\\d+)?', 'alpine', 'ubuntu', 'debian'],
  darwin: ['darwin', 'mac', 'macos', 'macosx', 'osx', 'apple-darwin'],
  windows: ['win', 'win32', 'win64', 'windows', 'mingw(?:32|64)?', 'mingw-w64', 'pc-windows-msvc', 'pc-windows-gnu'],
};

export const ANDROID_TOKENS = ['android', 'androideabi'] as const;

/** Operating systems we never target; an asset naming one is "other OS". */
export const FOREIGN_OS_TOKENS = [
  'freebsd',
  'netbsd',
  'openbsd',
  'dragonfly(?:bsd)?',
  'solaris',
  'illumos',
  'sunos',
  'aix',
  'plan9',
  'ios',
  'wasi',
  'wasm(?:32)?',
] as const;

/** Strong arch tokens. `x86` and bare `arm` must not match inside `x86_64` / `arm_64`. */
export const ARCH_STRONG: Record<TargetArch, readonly string[]> = {
  amd64: ['x86[-_]64', 'amd64', 'x64', 'linux64', 'win64'],
  arm64: ['aarch[-_]?64', 'arm[-_]?64', 'armv8'],
  '386': ['386', 'i[3-6]86', 'x86(?![-_]64)', 'x86[-_]32', 'x32', 'win32', 'linux32'],
  // Bare `arm` is 32-bit (ubi, mise). armhf/armel and the *eabi* triples are 32-bit ARM too.
  arm: ['arm(?![-_]64)', 'armv[5-7](?:l|a|hf|el)?', 'armhf', 'armel', 'arm32', '(?:gnu|musl)?eabi(?:hf)?'],
};

/** Weak tokens count only when no strong token of any arch matches. */
export const ARCH_WEAK: Partial<Record<TargetArch, readonly string[]>> = {
  amd64: ['64[-_]?bit'],
  '386': ['32[-_]?bit'],
};

/** macOS fat binaries run on amd64 and arm64 (weak match on darwin only). */
export const DARWIN_UNIVERSAL = ['universal2?', 'fat'] as const;

/** Architectures we never target; an asset naming one is "other arch". */
export const FOREIGN_ARCH_TOKENS = [
  'riscv64(?:gc)?',
  's390x',
  'ppc64(?:le)?',
  'powerpc(?:64)?(?:le)?',
  'mips(?:64)?(?:le|el)?',
  'loong(?:arch)?64',
  'sparc(?:v9|64)',
] as const;

/** libc tokens, Linux only. */
export const LIBC_TOKENS: Record<AssetLibc, readonly string[]> = {
  gnu: ['gnu', 'glibc', 'manylinux(?:\\d+|_\\d+_\\d+)?', 'gnueabi(?:hf)?'],
  musl: ['musl', 'musllinux(?:_\\d+_\\d+)?', 'alpine', 'musleabi(?:hf)?'],
  static: ['static', 'linuxstatic'],
};

/** Words that appear in target triples and carry no meaning of their own. */
export const VENDOR_TOKENS = ['unknown', 'pc', 'apple', 'msvc', 'w64', 'none', 'eabi'] as const;

/** A version token: 1, v1.2.3, 14.1.0-rc.1, 2024_01_05. */
export const VERSION_TOKEN = 'v?\\d+(?:[._]\\d+)*(?:-?(?:alpha|beta|rc|pre|dev)(?:[._]?\\d+)?)?';

export const DEBUG_TEST_TOKENS = ['debug\\w*', 'dbg', 'tests?', 'testing'] as const;

/** Archive formats, longest first so `.tar.gz` wins over `.gz`. */
export const ARCHIVE_EXTS = ['.tar.gz', '.tar.xz', '.tar.bz2', '.tar.zst', '.tgz', '.txz', '.tbz', '.tbz2', '.tzst', '.tar', '.zip'] as const;
export const COMPRESSED_EXTS = ['.gz', '.xz', '.bz2', '.zst'] as const;
export const LINUX_ONLY_EXTS = ['.appimage'] as const;
export const WINDOWS_ONLY_EXTS = ['.exe'] as const;

/** Always rejected: checksums, signatures, SBOMs, metadata, OS packages. */
export const DENIED_EXTS = [
  '.sha256',
  '.sha256sum',
  '.sha512',
  '.sha512sum',
  '.sha1',
  '.md5',
  '.asc',
  '.sig',
  '.sign',
  '.pem',
  '.crt',
  '.cert',
  '.key',
  '.pub',
  '.sbom',
  '.spdx',
  '.intoto.jsonl',
  '.jsonl',
  '.attestation',
  '.sigstore',
  '.sigstore.json',
  '.bundle',
  '.json',
  '.txt',
  '.xml',
  '.manifest',
  '.deb',
  '.rpm',
  '.apk',
  '.msi',
  '.msix',
  '.appx',
  '.pkg',
  '.dmg',
  '.vsix',
] as const;

/** Rejected names: docs, checksum files without an extension, GitHub-style source archives. */
export const DENIED_NAME: { re: RegExp; reason: string }[] = [
  { re: /changelog|readme|license/i, reason: 'documentation file' },
  { re: tokenRegex(['sha(?:1|224|256|384|512)?sums?(?:1|224|256|384|512)?', 'checksums?', 'md5sums?', 'b2sums?']), reason: 'checksum file' },
  // A bare digest name (`sha256`, `sha256.sum`, `md5`) is a checksum file too, with or without an extension.
  { re: /^(?:sha(?:1|224|256|384|512)|md5)(?:\.sum)?$/i, reason: 'checksum file' },
  { re: /source[\s_-]?code|(?:^|[-_.])(?:source|sources|src)\.(?:tar(?:\.\w+)?|tgz|zip)$/i, reason: 'source archive' },
];

export const ALL_OS: readonly TargetOs[] = ['linux', 'darwin', 'windows'];
export const ALL_ARCH: readonly TargetArch[] = ['amd64', 'arm64', '386', 'arm'];

/** True when any of `sources` appears in `s` as a whole token. */
// process-wide: a pure memo keyed by a constant token list (weak), no service data
const compiled = new WeakMap<readonly string[], RegExp>();
export function matchAny(sources: readonly string[], s: string): boolean {
  let re = compiled.get(sources);
  if (!re) compiled.set(sources, (re = tokenRegex(sources)));
  return re.test(s);
}

export type Format = 'archive' | 'zip' | 'compressed' | 'appimage' | 'exe' | 'none';

/** The format of an asset name, or the reason it is refused. */
export function assetFormat(name: string): { format: Format; ext: string } | { reason: string } {
  const lower = name.toLowerCase();
  for (const d of DENIED_NAME) if (d.re.test(name)) return { reason: d.reason };
  const denied = DENIED_EXTS.find((e) => lower.endsWith(e));
  if (denied) return { reason: `denied extension ${denied}` };
  const archive = ARCHIVE_EXTS.find((e) => lower.endsWith(e));
  if (archive) return { format: archive === '.zip' ? 'zip' : 'archive', ext: archive };
  const compressed = COMPRESSED_EXTS.find((e) => lower.endsWith(e));
  if (compressed) return { format: 'compressed', ext: compressed };
  if (LINUX_ONLY_EXTS.some((e) => lower.endsWith(e))) return { format: 'appimage', ext: '.appimage' };
  if (WINDOWS_ONLY_EXTS.some((e) => lower.endsWith(e))) return { format: 'exe', ext: '.exe' };
  const dot = name.lastIndexOf('.');
  const suffix = dot >= 0 ? name.slice(dot + 1) : '';
  // A "suffix" that is a version or platform token is no extension (`tool-v1.2`, `tool_1.2.3_linux_amd64`).
  if (/^[a-z][a-z0-9]{0,7}$/i.test(suffix) && !PLATFORM_RE.test(suffix)) return { reason: `extension .${suffix} is not on the allowlist` };
  return { format: 'none', ext: '' };
}

export const PLATFORM_SOURCES: readonly string[] = [
  ...ALL_OS.flatMap((o) => OS_TOKENS[o]),
  ...ANDROID_TOKENS,
  ...FOREIGN_OS_TOKENS,
  ...ALL_ARCH.flatMap((a) => [...ARCH_STRONG[a], ...(ARCH_WEAK[a] ?? [])]),
  ...DARWIN_UNIVERSAL,
  ...FOREIGN_ARCH_TOKENS,
  ...LIBC_TOKENS.gnu,
  ...LIBC_TOKENS.musl,
  ...LIBC_TOKENS.static,
  ...VENDOR_TOKENS,
];
const PLATFORM_RE = tokenRegex(PLATFORM_SOURCES);

/** The asset name without the tool's own name in front (mise `platform_part`); `stripped` says whether it was there. */
export function platformPart(name: string, toolName: string): { rest: string; stripped: boolean } {
  const tool = toolName.toLowerCase();
  const next = name.charAt(tool.length);
  if (tool && name.toLowerCase().startsWith(tool) && !/[a-z0-9]/i.test(next)) return { rest: name.slice(tool.length), stripped: true };
  return { rest: name, stripped: false };
}

export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The longest text one placeholder (`{os}`, `{arch}`, `{version}`) may stand for. */
const MAX_TOKEN_CHARS = 64;

/** A wildcard atom matching any of the regex `sources` exactly, over at most MAX_TOKEN_CHARS characters. */
function tokenAtom(sources: readonly string[]): WildcardAtom {
  const whole = new RegExp(`^(?:${sources.join('|')})$`, 'i');
  return {
    kind: 'token',
    *ends(s, at) {
      const last = Math.min(s.length, at + MAX_TOKEN_CHARS);
      for (let end = at + 1; end <= last; end++) if (whole.test(s.slice(at, end))) yield end;
    },
  };
}

export interface AssetPatternMatcher {
  test(name: string): boolean;
}

/**
 * `{os}`/`{arch}` expand to the target's tokens, `{version}` to the version with or without `v`;
 * `*`, `?` are globs, the rest literal, case-insensitive. Matched by the shared wildcard matcher,
 * so a hostile pattern costs polynomial time, never exponential.
 */
export function compileAssetPattern(pattern: string, target: { os: TargetOs; arch: TargetArch }, version?: string): AssetPatternMatcher {
  const ver = version ? `v?${escapeRe(version.replace(/^v(?=\d)/i, ''))}` : VERSION_TOKEN;
  const atoms: WildcardAtom[] = [];
  for (const p of pattern.split(/(\{os\}|\{arch\}|\{version\})/)) {
    if (p === '{os}') atoms.push(tokenAtom(OS_TOKENS[target.os]));
    else if (p === '{arch}') atoms.push(tokenAtom([...ARCH_STRONG[target.arch], ...(ARCH_WEAK[target.arch] ?? [])]));
    else if (p === '{version}') atoms.push(tokenAtom([ver]));
    else atoms.push(...globAtoms(p));
  }
  return { test: (name) => matchWildcard(atoms, name, { caseInsensitive: true }) };
}
