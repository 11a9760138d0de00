/**
 * Checksum sources, parsing and verification (spec github-releases.md §10, GH-C01/C02/C05).
 * Pure: no network. The caller downloads the files named by `findChecksumSources`.
 */
import { createHash, timingSafeEqual, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { GithubInstallError } from './errors';

export type HashAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';

export interface Digest {
  algorithm: HashAlgorithm;
  /** Lower-case hex. */
  hex: string;
}

export type ChecksumSourceKind = 'api_digest' | 'sidecar' | 'checksums_file';
/** What is recorded per installed version (GH-C01). */
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

/** Checksum files larger than this are refused (a real one is a few KiB). */
export const MAX_CHECKSUM_FILE_BYTES = 1024 * 1024;

const HEX_LENGTH_ALGORITHM: Record<number, HashAlgorithm> = { 32: 'md5', 40: 'sha1', 64: 'sha256', 128: 'sha512' };
const ALGORITHM_HEX_LENGTH: Record<HashAlgorithm, number> = { md5: 32, sha1: 40, sha256: 64, sha512: 128 };

/** Per-asset file suffixes in preference order (§10.1 step 2). */
const SIDECAR_SUFFIXES: [string, HashAlgorithm][] = [
  ['.sha256', 'sha256'],
  ['.sha256sum', 'sha256'],
  ['.sha512', 'sha512'],
  ['.sha512sum', 'sha512'],
  ['.md5', 'md5'],
];

/** Global checksum file names, exact (case-insensitive), in order (§10.1 step 3). */
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

/** `"sha256:<64 hex>"` (GitHub asset `digest`) → Digest; null/empty → null; anything else throws. */
export function parseApiDigest(value: string | null | undefined): Digest | null {
  if (value === null || value === undefined || value === '') return null;
  const m = /^(sha256|sha512):([0-9a-fA-F]+)$/.exec(value.trim());
  if (!m || m[2].length !== ALGORITHM_HEX_LENGTH[m[1] as HashAlgorithm]) {
    throw new GithubInstallError('upstream_error', `GitHub sent a malformed asset digest (${value.slice(0, 80)}).`, { details: { digest: value.slice(0, 200) } });
  }
  return { algorithm: m[1] as HashAlgorithm, hex: m[2].toLowerCase() };
}

/**
 * Checksum sources for `assetName`, in §10.1 order: the API digest, per-asset files
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
    (a) =>
      a.name !== assetName &&
      (a.state === undefined || a.state === 'uploaded') &&
      (a.size === undefined || a.size <= MAX_CHECKSUM_FILE_BYTES),
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

function validHex(hex: string): HashAlgorithm | undefined {
  if (!/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  return HEX_LENGTH_ALGORITHM[hex.length];
}

function basename(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i >= 0 ? p.slice(i + 1) : p;
}

export interface ParseChecksumOptions {
  /**
   * The file is a per-asset sidecar: a single entry is accepted even when it names another
   * file (sidecars often name the stripped or a build-path name). Multi-entry files still
   * must list the asset.
   */
  sidecar?: boolean;
  /** Expected algorithm (from the file name); a mismatching hex length is rejected. */
  algorithm?: HashAlgorithm;
}

export interface ParsedChecksum extends Digest {
  /** The file name the entry was keyed by; absent for a bare-hash file. */
  name?: string;
}

const malformed = (assetName: string, why: string, extra: Record<string, unknown> = {}) =>
  new GithubInstallError('checksum_missing_entry', `The checksum entry for ${assetName} is unusable: ${why}.`, {
    details: { asset: assetName, reason: why, ...extra },
  });

/**
 * Find the hash of `assetName` in a checksum file (§10.2): `<hex>  <name>`, `<hex> *<name>`,
 * BSD `SHA256 (<name>) = <hex>`, or a file holding just the hash. Keys are basenames with `*`
 * and `./` stripped. A file that lists other files but not ours throws
 * `checksum_missing_entry` — its first hash is never taken.
 */
export function parseChecksumFile(input: string | Buffer, assetName: string, opts: ParseChecksumOptions = {}): ParsedChecksum {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.length;
  if (size > MAX_CHECKSUM_FILE_BYTES) {
    throw new GithubInstallError('upstream_too_large', `The checksum file is ${size} bytes; the limit is ${MAX_CHECKSUM_FILE_BYTES}.`, { details: { size } });
  }
  const text = (typeof input === 'string' ? input : input.toString('utf8')).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const check = (hex: string, name?: string): ParsedChecksum => {
    const algorithm = validHex(hex);
    if (!algorithm) throw malformed(assetName, `"${hex.slice(0, 140)}" is not a 32/40/64/128-digit hex hash`, { length: hex.length });
    if (opts.algorithm && opts.algorithm !== algorithm) {
      throw malformed(assetName, `a ${hex.length}-digit hash is not ${opts.algorithm}`, { expectedAlgorithm: opts.algorithm, foundAlgorithm: algorithm });
    }
    return { algorithm, hex: hex.toLowerCase(), ...(name !== undefined ? { name } : {}) };
  };

  const trimmed = text.trim();
  if (trimmed === '') throw new GithubInstallError('checksum_missing_entry', `The checksum file is empty; it has no entry for ${assetName}.`, { details: { asset: assetName, listed: [] } });
  // A single token with no whitespace is the hash itself (optionally "sha256:<hex>").
  if (!/\s/.test(trimmed)) return check(trimmed.replace(/^(?:md5|sha1|sha256|sha512):/i, ''));

  const target = basename(assetName);
  const entries: { hex: string; name: string }[] = [];
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    let m = /^(?:SHA(?:1|256|512)|MD5)\s*\((.+)\)\s*=\s*(\S+)$/i.exec(line); // BSD / `shasum --tag`
    if (m) {
      entries.push({ hex: m[2], name: m[1] });
      continue;
    }
    if (line.startsWith('\\')) line = line.slice(1); // GNU escaped-name marker
    m = /^(\S+)[ \t]+(.+)$/.exec(line);
    if (!m) {
      entries.push({ hex: line, name: '' }); // a bare hash line inside a multi-line file
      continue;
    }
    let name = m[2].replace(/^[ *]/, '').trim();
    while (name.startsWith('./')) name = name.slice(2);
    entries.push({ hex: m[1], name: basename(name) });
  }

  const named = entries.filter((e) => e.name !== '');
  let hits = named.filter((e) => e.name === target);
  if (hits.length === 0) hits = named.filter((e) => e.name.toLowerCase() === target.toLowerCase());
  if (hits.length === 0 && opts.sidecar && entries.length === 1) hits = entries;
  if (hits.length === 0) {
    throw new GithubInstallError('checksum_missing_entry', `The checksum file lists ${named.length} file(s) but not ${assetName}.`, {
      details: { asset: assetName, listed: named.slice(0, 50).map((e) => e.name) },
    });
  }
  const distinct = new Set(hits.map((h) => h.hex.toLowerCase()));
  if (distinct.size > 1) throw malformed(assetName, 'the file lists it more than once with different hashes');
  return check(hits[0].hex, hits[0].name || undefined);
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
  const actualHex = 'algorithm' in actual && typeof actual.algorithm === 'string' && 'hex' in actual
    ? (actual.algorithm === expected.algorithm ? (actual as Digest).hex : undefined)
    : (actual as Partial<Record<HashAlgorithm, string>>)[expected.algorithm];
  if (actualHex === undefined) {
    throw new GithubInstallError('checksum_mismatch', `No ${expected.algorithm} hash was computed for ${ctx.assetName ?? 'the download'}; cannot verify.`, {
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
    throw new GithubInstallError(
      'checksum_mismatch',
      `Checksum mismatch for ${ctx.assetName ?? 'the download'}${ctx.source ? ` (${ctx.source})` : ''}: expected ${describe(expected)}, got ${describe(got)}.`,
      {
        details: { asset: ctx.assetName, source: ctx.source, expected: describe(expected), actual: describe(got) },
        hint: 'The download was deleted. The release asset may have been replaced or tampered with.',
      },
    );
  }
}

export interface MultiHasher {
  update(chunk: Uint8Array): void;
  /** Lower-case hex per algorithm; sha256 is always present. Call once, at the end. */
  digests(): Record<HashAlgorithm, string> & { sha256: string };
  readonly bytes: number;
  /** A pass-through stream that hashes what flows through it (hash while downloading). */
  transform(): Transform;
}

/** Hash one stream for several algorithms at once (sha256 always included). */
export function createMultiHasher(algorithms: Iterable<HashAlgorithm> = []): MultiHasher {
  const algs = new Set<HashAlgorithm>(['sha256', ...algorithms]);
  const hashes = new Map<HashAlgorithm, Hash>([...algs].map((a) => [a, createHash(a)]));
  let bytes = 0;
  let done: (Record<HashAlgorithm, string> & { sha256: string }) | null = null;
  const hasher: MultiHasher = {
    update(chunk) {
      if (done) throw new Error('MultiHasher: update after digests()');
      bytes += chunk.length;
      for (const h of hashes.values()) h.update(chunk);
    },
    digests() {
      if (!done) {
        const out: Partial<Record<HashAlgorithm, string>> = {};
        for (const [a, h] of hashes) out[a] = h.digest('hex');
        done = out as Record<HashAlgorithm, string> & { sha256: string };
      }
      return done;
    },
    get bytes() {
      return bytes;
    },
    transform() {
      return new Transform({
        transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
          hasher.update(chunk);
          cb(null, chunk);
        },
      });
    },
  };
  return hasher;
}

/** Hash a file on disk (streamed) for the given algorithms plus sha256. */
export async function hashFile(path: string, algorithms: Iterable<HashAlgorithm> = []): Promise<Record<HashAlgorithm, string> & { sha256: string; bytes: number }> {
  const h = createMultiHasher(algorithms);
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return { ...h.digests(), bytes: h.bytes };
}

/** Algorithms the caller must compute to check every source (sha256 is always computed). */
export function algorithmsNeeded(sources: readonly Pick<ChecksumSource, 'algorithm'>[]): HashAlgorithm[] {
  const set = new Set<HashAlgorithm>(['sha256']);
  for (const s of sources) if (s.algorithm) set.add(s.algorithm);
  return [...set];
}

export type VerificationMode = 'verify' | 'tofu';

/**
 * GH-C02: with sources → 'verify'; none and `requireChecksum` off → 'tofu' (record the hash);
 * none and on → throws `checksum_required`.
 */
export function decideVerification(input: { sources: readonly unknown[]; requireChecksum: boolean; assetName?: string }): VerificationMode {
  if (input.sources.length > 0) return 'verify';
  if (input.requireChecksum) {
    throw new GithubInstallError('checksum_required', `No checksum was published for ${input.assetName ?? 'this asset'} and the policy requires one.`, {
      details: { asset: input.assetName },
      hint: 'Turn off "Require checksum" for this package to trust the first download (TOFU), or pick a release that publishes checksums.',
    });
  }
  return 'tofu';
}

/**
 * GH-C05: the API digest recorded for a tag must not change. Throws `digest_changed` when a
 * different digest is now reported for the same tag and asset.
 */
export function checkRecordedDigest(recorded: Digest | string | null | undefined, current: Digest | string | null | undefined, ctx: { tag: string; assetName: string }): void {
  const norm = (d: Digest | string | null | undefined) => (typeof d === 'string' ? parseApiDigest(d) : (d ?? null));
  const a = norm(recorded);
  const b = norm(current);
  if (!a || !b) return;
  if (a.algorithm !== b.algorithm) return;
  if (a.hex.toLowerCase() !== b.hex.toLowerCase()) {
    throw new GithubInstallError('digest_changed', `The digest of ${ctx.assetName} in ${ctx.tag} changed from ${describe(a)} to ${describe(b)}; updates from this tag are blocked.`, {
      details: { tag: ctx.tag, asset: ctx.assetName, recorded: describe(a), current: describe(b) },
      hint: 'A published release asset was replaced. Check the upstream project before installing it.',
    });
  }
}
