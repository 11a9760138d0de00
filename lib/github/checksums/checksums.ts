/**
 * Checksum sources, verification and policy.
 * Pure: no network. The caller downloads the files named by `findChecksumSources`.
 * Parsing lives in `parse.ts`, hashing in `hash.ts`.
 */
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { ALGORITHM_HEX_LENGTH, type Digest, type HashAlgorithm, MAX_CHECKSUM_FILE_BYTES, parseApiDigest } from './parse';

export { createMultiHasher, hashFile, type MultiHasher } from './hash';
export {
  type Digest,
  type HashAlgorithm,
  MAX_CHECKSUM_FILE_BYTES,
  type ParseChecksumOptions,
  type ParsedChecksum,
  parseApiDigest,
  parseChecksumFile,
} from './parse';

export type ChecksumSourceKind = 'api_digest' | 'sidecar' | 'checksums_file';
/** What is recorded per installed version. */
export type ChecksumRecordSource = ChecksumSourceKind | 'tofu';

/** The release asset fields used here (GitHub REST `ReleaseAsset`). */
export interface ChecksumAssetLike {
  name: string;
  digest?: string | null;
  size?: number;
  state?: string;
}

export interface ChecksumSource<A extends ChecksumAssetLike = ChecksumAssetLike> {
  kind: ChecksumSourceKind;
  /** The file to download (sidecar / checksums file), or the asset itself for `api_digest`. */
  asset?: A;
  /** Known from the API digest or the file name; otherwise derived from the hex length. */
  algorithm?: HashAlgorithm;
  /** Present for `api_digest`: the parsed digest. */
  expected?: Digest;
}

/** Per-asset file suffixes in preference order. */
const SIDECAR_SUFFIXES: [string, HashAlgorithm][] = [
  ['.sha256', 'sha256'],
  ['.sha256sum', 'sha256'],
  ['.sha512', 'sha512'],
  ['.sha512sum', 'sha512'],
  ['.md5', 'md5'],
];

/** Global checksum file names, exact (case-insensitive), in order. */
const GLOBAL_EXACT = ['checksums.txt', 'sha256sums', 'shasums256.txt', 'sha256sums.txt', 'sha256sum.txt', 'sha512sums', 'sha512sums.txt'];
const GLOBAL_SUFFIXES = ['_checksums.txt', '-checksums.txt', '.sha256sums'];
/** Signatures, certificates and attestations of checksum files are not checksum files. */
const NOT_A_CHECKSUM_FILE = /\.(sig|asc|gpg|pem|crt|cert|minisig|sigstore|bundle|p7s|sbom|spdx|intoto\.jsonl|sigstore\.json|json)$/i;

const ARCHIVE_SUFFIX = /\.(tar\.gz|tgz|tar\.xz|txz|tar\.bz2|tbz2?|tar\.zst|tzst|tar|zip|gz|xz|bz2|zst|7z)$/i;

/** `tool_linux_amd64.tar.gz` → `tool_linux_amd64`; unchanged when there is no archive suffix. */
export function stripArchiveSuffix(name: string): string {
  return name.replace(ARCHIVE_SUFFIX, '');
}

function algorithmFromName(name: string): HashAlgorithm | undefined {
  const n = name.toLowerCase();
  if (n.includes('sha512') || n.includes('shasums512')) return 'sha512';
  if (n.includes('sha256') || n.includes('shasums256')) return 'sha256';
  if (n.includes('sha1')) return 'sha1';
  if (n.includes('md5')) return 'md5';
  return undefined;
}

/**
 * Checksum sources for `assetName`, in this order: the API digest, per-asset files
 * (`<asset>.sha256` …, then the same with the archive suffix stripped), then global files
 * (exact names, suffixes, any name containing "checksum"). Assets not `uploaded`, larger
 * than 1 MiB, or that are signatures are left out.
 */
export function findChecksumSources<A extends ChecksumAssetLike>(assetName: string, releaseAssets: readonly A[]): ChecksumSource<A>[] {
  const out: ChecksumSource<A>[] = [];
  const self = releaseAssets.find((a) => a.name === assetName);
  const expected = self ? parseApiDigest(self.digest) : null;
  if (self && expected) out.push({ kind: 'api_digest', asset: self, algorithm: expected.algorithm, expected });

  const usable = releaseAssets.filter(
    (a) => a.name !== assetName && (a.state === undefined || a.state === 'uploaded') && (a.size === undefined || a.size <= MAX_CHECKSUM_FILE_BYTES),
  );
  const byLower = new Map<string, A>();
  for (const a of usable) if (!byLower.has(a.name.toLowerCase())) byLower.set(a.name.toLowerCase(), a);
  const taken = new Set<A>();
  const take = (a: A | undefined, kind: ChecksumSourceKind, algorithm: HashAlgorithm | undefined) => {
    if (!a || taken.has(a)) return;
    taken.add(a);
    out.push({ kind, asset: a, ...(algorithm ? { algorithm } : {}) });
  };

  const stems = [assetName];
  const stripped = stripArchiveSuffix(assetName);
  if (stripped !== assetName && stripped !== '') stems.push(stripped);
  for (const stem of stems) {
    for (const [suffix, alg] of SIDECAR_SUFFIXES) take(byLower.get((stem + suffix).toLowerCase()), 'sidecar', alg);
  }

  for (const exact of GLOBAL_EXACT) take(byLower.get(exact), 'checksums_file', algorithmFromName(exact));
  for (const suffix of GLOBAL_SUFFIXES) {
    for (const a of usable) if (a.name.toLowerCase().endsWith(suffix)) take(a, 'checksums_file', algorithmFromName(a.name));
  }
  for (const a of usable) {
    if (a.name.toLowerCase().includes('checksum') && !NOT_A_CHECKSUM_FILE.test(a.name)) take(a, 'checksums_file', algorithmFromName(a.name));
  }
  return out;
}

function describe(d: Digest): string {
  return `${d.algorithm}:${d.hex}`;
}

export interface VerifyContext {
  assetName?: string;
  source?: ChecksumRecordSource | string;
}

/**
 * Compare an expected hash with the computed one in constant time. `actual` is a digest or
 * the map from `MultiHasher.digests()`. Throws `checksum_mismatch` naming both.
 */
export function verifyDigest(expected: Digest, actual: Digest | Partial<Record<HashAlgorithm, string>>, ctx: VerifyContext = {}): void {
  const actualHex =
    'algorithm' in actual && typeof actual.algorithm === 'string' && 'hex' in actual
      ? actual.algorithm === expected.algorithm
        ? (actual as Digest).hex
        : undefined
      : (actual as Partial<Record<HashAlgorithm, string>>)[expected.algorithm];
  if (actualHex === undefined) {
    throw new AppError('checksum_mismatch', `No ${expected.algorithm} hash was computed for ${ctx.assetName ?? 'the download'}; cannot verify.`, {
      details: { expected: describe(expected), source: ctx.source },
    });
  }
  const len = ALGORITHM_HEX_LENGTH[expected.algorithm];
  const ok =
    expected.hex.length === len &&
    actualHex.length === len &&
    /^[0-9a-fA-F]+$/.test(expected.hex) &&
    /^[0-9a-fA-F]+$/.test(actualHex) &&
    timingSafeEqual(Buffer.from(expected.hex, 'hex'), Buffer.from(actualHex, 'hex'));
  if (!ok) {
    const got = { algorithm: expected.algorithm, hex: actualHex.toLowerCase() };
    throw new AppError(
      'checksum_mismatch',
      `Checksum mismatch for ${ctx.assetName ?? 'the download'}${ctx.source ? ` (${ctx.source})` : ''}: expected ${describe(expected)}, got ${describe(got)}.`,
      {
        details: { asset: ctx.assetName, source: ctx.source, expected: describe(expected), actual: describe(got) },
        hint: 'The download was deleted. The release asset may have been replaced or tampered with.',
      },
    );
  }
}

/** Algorithms the caller must compute to check every source (sha256 is always computed). */
export function algorithmsNeeded(sources: readonly Pick<ChecksumSource, 'algorithm'>[]): HashAlgorithm[] {
  const set = new Set<HashAlgorithm>(['sha256']);
  for (const s of sources) if (s.algorithm) set.add(s.algorithm);
  return [...set];
}

export type VerificationMode = 'verify' | 'tofu';

/**
 * With sources → 'verify'; none and `requireChecksum` off → 'tofu' (record the hash);
 * none and on → throws `checksum_required`.
 */
export function decideVerification(input: { sources: readonly unknown[]; requireChecksum: boolean; assetName?: string }): VerificationMode {
  if (input.sources.length > 0) return 'verify';
  if (input.requireChecksum) {
    throw new AppError('checksum_required', `No checksum was published for ${input.assetName ?? 'this asset'} and the policy requires one.`, {
      details: { asset: input.assetName },
      hint: 'Turn off "Require checksum" for this package to trust the first download (TOFU), or pick a release that publishes checksums.',
    });
  }
  return 'tofu';
}

/**
 * The API digest recorded for a tag must not change. Throws `digest_changed` when a
 * different digest is now reported for the same tag and asset.
 */
export function checkRecordedDigest(
  recorded: Digest | string | null | undefined,
  current: Digest | string | null | undefined,
  ctx: { tag: string; assetName: string },
): void {
  const norm = (d: Digest | string | null | undefined) => (typeof d === 'string' ? parseApiDigest(d) : (d ?? null));
  const a = norm(recorded);
  const b = norm(current);
  if (!a || !b) return;
  if (a.algorithm !== b.algorithm) return;
  if (a.hex.toLowerCase() !== b.hex.toLowerCase()) {
    throw new AppError(
      'digest_changed',
      `The digest of ${ctx.assetName} in ${ctx.tag} changed from ${describe(a)} to ${describe(b)}; updates from this tag are blocked.`,
      {
        details: { tag: ctx.tag, asset: ctx.assetName, recorded: describe(a), current: describe(b) },
        hint: 'A published release asset was replaced. Check the upstream project before installing it.',
      },
    );
  }
}
