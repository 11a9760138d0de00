import { AppError } from '../../core/errors';
import type { Target } from './target';
import {
  ALL_ARCH,
  ALL_OS,
  ANDROID_TOKENS,
  ARCH_STRONG,
  ARCH_WEAK,
  type AssetLibc,
  type AssetPatternMatcher,
  assetFormat,
  compileAssetPattern,
  DARWIN_UNIVERSAL,
  DEBUG_TEST_TOKENS,
  DEFAULT_MAX_ASSET_BYTES,
  escapeRe,
  FOREIGN_ARCH_TOKENS,
  FOREIGN_OS_TOKENS,
  type Format,
  LIBC_TOKENS,
  matchAny,
  OS_TOKENS,
  PLATFORM_SOURCES,
  platformPart,
  SCORES,
  tokenRegex,
  VERSION_TOKEN,
} from './tokens';

export { assetFormat, compileAssetPattern, platformPart, SCORES };

/** Release-asset selection. Pure: no I/O. */

export interface ReleaseAsset {
  id?: number;
  name: string;
  size: number;
  state?: string;
  browser_download_url?: string;
  url?: string;
  digest?: string | null;
  content_type?: string;
}

/** os/arch/libc of the execution target; the same shape as `Target` in ./target. */
export type PickTarget = Target;

export interface PickOptions {
  /** Repo name, or the binaryName override; stripped from the front of asset names before token matching. */
  toolName: string;
  maxSizeBytes?: number;
  /** Substring the asset name must contain (case-sensitive). */
  matching?: string;
  /** JavaScript regex the asset name must match. */
  matchingRegex?: string;
  /** Glob (`*`, `?`) over the whole name with `{os}`, `{arch}`, `{version}`; case-insensitive. Bypasses the OS/arch/libc filters. */
  assetPattern?: string;
  /** Release version or tag, for `{version}` and the stem bonus. */
  version?: string;
}

export interface Scored<A extends ReleaseAsset = ReleaseAsset> {
  asset: A;
  score: number;
  reasons: string[];
  libc?: AssetLibc;
}

export interface Rejected {
  name: string;
  reason: string;
}

export interface RankResult<A extends ReleaseAsset = ReleaseAsset> {
  ranked: Scored<A>[];
  rejected: Rejected[];
}

export interface PickResult<A extends ReleaseAsset = ReleaseAsset> extends RankResult<A> {
  chosen: Scored<A>;
}

export class NoMatchingAssetError extends Error {
  readonly code = 'no_matching_asset';
  readonly candidates: Rejected[];
  readonly target: PickTarget;

  constructor(target: PickTarget, candidates: Rejected[]) {
    const where = `${target.os}/${target.arch}${target.os === 'linux' ? `/${target.libc}` : ''}`;
    const list = candidates.map((c) => `  ${c.name}: ${c.reason}`).join('\n');
    super(candidates.length ? `No release asset fits ${where}. Candidates:\n${list}` : `The release has no assets (target ${where}).`);
    this.name = 'NoMatchingAssetError';
    this.target = target;
    this.candidates = candidates;
  }
}

/** Code-point order, independent of the locale. */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const pts = (n: number) => (n >= 0 ? `+${n}` : `${n}`);

function overrideFilters(opts: PickOptions, target: PickTarget): { test: (name: string) => string | null } {
  let re: RegExp | undefined;
  let pattern: AssetPatternMatcher | undefined;
  if (opts.matchingRegex !== undefined) {
    const fail = (why: string) => new AppError('validation', `matchingRegex ${why}.`, { issues: [{ path: 'matchingRegex', message: why }] });
    if (opts.matchingRegex.length > 500) throw fail('is longer than 500 characters');
    try {
      re = new RegExp(opts.matchingRegex);
    } catch (e) {
      throw fail(`is not a valid regular expression (${(e as Error).message})`);
    }
  }
  if (opts.assetPattern !== undefined) pattern = compileAssetPattern(opts.assetPattern, target, opts.version);
  return {
    test(name) {
      if (opts.matching !== undefined && !name.includes(opts.matching)) return `does not contain "${opts.matching}" (matching)`;
      if (re && !re.test(name)) return `does not match /${opts.matchingRegex}/ (matchingRegex)`;
      if (pattern && !pattern.test(name)) return `does not match "${opts.assetPattern}" (assetPattern)`;
      return null;
    },
  };
}

interface Cand<A extends ReleaseAsset> {
  asset: A;
  rest: string;
  stripped: boolean;
  format: Format;
  ext: string;
  os: 'own' | 'none' | string;
  arch: 'strong' | 'weak' | 'none' | string;
  reasons: string[];
}

function osOf(rest: string, format: Format, target: PickTarget): Cand<ReleaseAsset>['os'] {
  if (matchAny(ANDROID_TOKENS, rest)) return 'android build';
  const other = ALL_OS.find((o) => o !== target.os && matchAny(OS_TOKENS[o], rest));
  if (other) return `other OS (${other})`;
  if (matchAny(FOREIGN_OS_TOKENS, rest)) return 'other OS';
  if (format === 'exe' && target.os !== 'windows') return 'Windows-only format (.exe)';
  if (format === 'appimage' && target.os !== 'linux') return 'Linux-only format (.AppImage)';
  if (matchAny(OS_TOKENS[target.os], rest) || format === 'exe' || format === 'appimage') return 'own';
  return 'none';
}

function archOf(rest: string, target: PickTarget): Cand<ReleaseAsset>['arch'] {
  const strong = ALL_ARCH.filter((a) => matchAny(ARCH_STRONG[a], rest));
  if (strong.includes(target.arch)) return 'strong';
  if (strong.length) return `other arch (${strong.join(', ')})`;
  if (matchAny(FOREIGN_ARCH_TOKENS, rest)) return 'other arch';
  const weak = ALL_ARCH.filter((a) => ARCH_WEAK[a] && matchAny(ARCH_WEAK[a]!, rest));
  if (weak.includes(target.arch)) return 'weak';
  if (weak.length) return `other arch (${weak.join(', ')})`;
  if (target.os === 'darwin' && (target.arch === 'amd64' || target.arch === 'arm64') && matchAny(DARWIN_UNIVERSAL, rest)) return 'weak';
  return 'none';
}

function libcOf(rest: string): AssetLibc | undefined {
  if (matchAny(LIBC_TOKENS.musl, rest)) return 'musl';
  if (matchAny(LIBC_TOKENS.gnu, rest)) return matchAny(LIBC_TOKENS.static, rest) ? 'static' : 'gnu';
  if (matchAny(LIBC_TOKENS.static, rest)) return 'static';
  return undefined;
}

/** True when the stem is the tool name followed only by platform and version tokens. */
function isPlainStem(c: Cand<ReleaseAsset>, version?: string): boolean {
  if (!c.stripped) return false;
  let s = c.ext ? c.rest.slice(0, c.rest.length - c.ext.length) : c.rest;
  const extra = version ? [escapeRe(version), escapeRe(version.replace(/^v(?=\d)/i, ''))] : [];
  const re = tokenRegex([...PLATFORM_SOURCES, ...extra, VERSION_TOKEN], 'gi');
  for (let prev = ''; prev !== s; ) [prev, s] = [s, s.replace(re, ' ')];
  return /^[-_.\s/+]*$/.test(s);
}

/** Every asset scored or rejected, best first. Never throws for a release without a match. */
export function rankAssets<A extends ReleaseAsset>(assets: readonly A[], target: PickTarget, opts: PickOptions): RankResult<A> {
  const max = opts.maxSizeBytes ?? DEFAULT_MAX_ASSET_BYTES;
  const overrides = overrideFilters(opts, target);
  const relaxed = opts.assetPattern !== undefined;
  const rejected: Rejected[] = [];
  const reject = (name: string, reason: string) => rejected.push({ name, reason });
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

  let cands: Cand<A>[] = [];
  for (const asset of assets) {
    if (asset.state !== undefined && asset.state !== 'uploaded') {
      reject(asset.name, `state is ${asset.state}, not uploaded`);
      continue;
    }
    if (asset.size > max) {
      reject(asset.name, `size ${mib(asset.size)} is over the ${mib(max)} cap`);
      continue;
    }
    const fmt = assetFormat(asset.name);
    if ('reason' in fmt) {
      reject(asset.name, fmt.reason);
      continue;
    }
    const overridden = overrides.test(asset.name);
    if (overridden) {
      reject(asset.name, overridden);
      continue;
    }
    const { rest, stripped } = platformPart(asset.name, opts.toolName);
    cands.push({ asset, rest, stripped, ...fmt, os: osOf(rest, fmt.format, target), arch: archOf(rest, target), reasons: [] });
  }

  // A platform verdict removes the asset, or with an assetPattern is only noted (the admin named the asset).
  const gate = (c: Cand<A>, reason: string) => {
    if (relaxed) {
      c.reasons.push(`${reason} (kept: assetPattern)`);
      return true;
    }
    reject(c.asset.name, reason);
    return false;
  };
  const ownOs = cands.some((c) => c.os === 'own');
  cands = cands.filter((c) => {
    if (c.os === 'own') return c.reasons.push(`os ${target.os}`) > 0;
    if (c.os === 'none') return ownOs ? gate(c, `no OS token (an asset names ${target.os})`) : c.reasons.push('no OS token (fallback)') > 0;
    return gate(c, c.os);
  });
  const ownArch = cands.some((c) => c.arch === 'strong' || c.arch === 'weak');
  const ranked: Scored<A>[] = [];
  for (const c of cands) {
    let score = 0;
    const add = (label: string, n: number) => {
      score += n;
      c.reasons.push(`${label} (${pts(n)})`);
    };
    if (c.arch === 'strong') add(`arch ${target.arch}`, SCORES.archStrong);
    else if (c.arch === 'weak') add(`arch ${target.arch}, weak token`, SCORES.archWeak);
    else if (c.arch === 'none') {
      if (ownArch && !gate(c, `no arch token (an asset names ${target.arch})`)) continue;
      if (!ownArch) add('no arch token (fallback)', SCORES.archNone);
    } else if (!gate(c, c.arch)) continue;

    const libc = target.os === 'linux' ? libcOf(c.rest) : undefined;
    if (libc === 'gnu' && target.libc === 'musl' && !gate(c, 'gnu build on a musl host')) continue;
    if (libc === 'static') add('static build', SCORES.static);
    else if (libc === 'gnu' && target.libc === 'glibc') add('gnu on a glibc host', SCORES.glibcHostGnu);
    else if (libc === 'gnu' && target.libc === 'unknown') add('gnu while the host libc is unknown', SCORES.unknownHostGnu);
    else if (libc === 'musl' && target.libc === 'glibc') add('musl on a glibc host', SCORES.glibcHostMusl);
    else if (libc === 'musl' && target.libc === 'musl') add('musl on a musl host', SCORES.muslHostMusl);
    else if (libc === 'musl') add('musl while the host libc is unknown', SCORES.unknownHostMusl);

    if (c.format === 'archive' || c.format === 'zip') add('archive', SCORES.archive);
    if (c.format === 'zip') add(target.os === 'windows' ? 'zip on Windows' : 'zip', target.os === 'windows' ? SCORES.zipWindows : SCORES.zip);
    if (isPlainStem(c, opts.version)) add('name is the tool name plus platform/version tokens', SCORES.stem);
    if (matchAny(DEBUG_TEST_TOKENS, c.rest)) add('debug/test build', SCORES.debugOrTest);
    ranked.push({ asset: c.asset, score, reasons: c.reasons, ...(libc ? { libc } : {}) });
  }
  ranked.sort((a, b) => b.score - a.score || a.asset.name.length - b.asset.name.length || byName(a.asset.name, b.asset.name));
  const order = new Map(assets.map((a, i) => [a.name, i]));
  rejected.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  return { ranked, rejected };
}

/** The best asset for `target`; throws `NoMatchingAssetError` listing every asset with its reason. */
export function pickAsset<A extends ReleaseAsset>(assets: readonly A[], target: PickTarget, opts: PickOptions): PickResult<A> {
  const { ranked, rejected } = rankAssets(assets, target, opts);
  if (!ranked.length) throw new NoMatchingAssetError(target, rejected);
  return { chosen: ranked[0], ranked, rejected };
}
