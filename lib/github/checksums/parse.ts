/**
 * Checksum parsing: GitHub API digests and checksum files
 * (GNU, BSD and bare-hash forms). Pure: no network, no disk.
 */
import { AppError } from '@/lib/core/errors';

export type HashAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';

export interface Digest {
  algorithm: HashAlgorithm;
  /** Lower-case hex. */
  hex: string;
}

/** Checksum files larger than this are refused (a real one is a few KiB). */
export const MAX_CHECKSUM_FILE_BYTES = 1024 * 1024;

const HEX_LENGTH_ALGORITHM: Record<number, HashAlgorithm> = { 32: 'md5', 40: 'sha1', 64: 'sha256', 128: 'sha512' };
export const ALGORITHM_HEX_LENGTH: Record<HashAlgorithm, number> = { md5: 32, sha1: 40, sha256: 64, sha512: 128 };

/** `"sha256:<64 hex>"` (GitHub asset `digest`) → Digest; null/empty → null; anything else throws. */
export function parseApiDigest(value: string | null | undefined): Digest | null {
  if (value === null || value === undefined || value === '') return null;
  const m = /^(sha256|sha512):([0-9a-fA-F]+)$/.exec(value.trim());
  if (!m || m[2].length !== ALGORITHM_HEX_LENGTH[m[1] as HashAlgorithm]) {
    throw new AppError('upstream_error', `GitHub sent a malformed asset digest (${value.slice(0, 80)}).`, { details: { digest: value.slice(0, 200) } });
  }
  return { algorithm: m[1] as HashAlgorithm, hex: m[2].toLowerCase() };
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
  new AppError('checksum_missing_entry', `The checksum entry for ${assetName} is unusable: ${why}.`, {
    details: { asset: assetName, reason: why, ...extra },
  });

/**
 * Find the hash of `assetName` in a checksum file: `<hex>  <name>`, `<hex> *<name>`,
 * BSD `SHA256 (<name>) = <hex>`, or a file holding just the hash. Keys are basenames with `*`
 * and `./` stripped. A file that lists other files but not ours throws
 * `checksum_missing_entry` — its first hash is never taken.
 */
/** `SHA256 (name) = hex`: the name runs to the last `)` (names may hold parentheses). */
function bsdLine(line: string): { hex: string; name: string } | null {
  const head = /^(?:SHA(?:1|256|512)|MD5)[ \t]*\(/i.exec(line);
  const close = line.lastIndexOf(')');
  if (!head || close <= head[0].length) return null;
  const tail = /^[ \t]*=[ \t]*(\S+)$/.exec(line.slice(close + 1));
  return tail ? { hex: tail[1], name: line.slice(head[0].length, close) } : null;
}

export function parseChecksumFile(input: string | Buffer, assetName: string, opts: ParseChecksumOptions = {}): ParsedChecksum {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.length;
  if (size > MAX_CHECKSUM_FILE_BYTES) {
    throw new AppError('upstream_too_large', `The checksum file is ${size} bytes; the limit is ${MAX_CHECKSUM_FILE_BYTES}.`, { details: { size } });
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
  if (trimmed === '')
    throw new AppError('checksum_missing_entry', `The checksum file is empty; it has no entry for ${assetName}.`, {
      details: { asset: assetName, listed: [] },
    });
  // A single token with no whitespace is the hash itself (optionally "sha256:<hex>").
  if (!/\s/.test(trimmed)) return check(trimmed.replace(/^(?:md5|sha1|sha256|sha512):/i, ''));

  const target = basename(assetName);
  const entries: { hex: string; name: string }[] = [];
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const bsd = bsdLine(line); // BSD / `shasum --tag`
    if (bsd) {
      entries.push(bsd);
      continue;
    }
    if (line.startsWith('\\')) line = line.slice(1); // GNU escaped-name marker
    const m = /^(\S+)[ \t]+([^ \t].*)$/.exec(line);
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
    throw new AppError('checksum_missing_entry', `The checksum file lists ${named.length} file(s) but not ${assetName}.`, {
      details: { asset: assetName, listed: named.slice(0, 50).map((e) => e.name) },
    });
  }
  const distinct = new Set(hits.map((h) => h.hex.toLowerCase()));
  if (distinct.size > 1) throw malformed(assetName, 'the file lists it more than once with different hashes');
  return check(hits[0].hex, hits[0].name || undefined);
}
