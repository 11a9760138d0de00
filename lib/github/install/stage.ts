import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { AppError } from '@/lib/core/errors';
import { extractArchive, extractArchiveStream } from '../../archive/archive';
import { DOWNLOAD_BLOCK, type DownloadOptions, downloadAsset, downloadText } from '../assets/download';
import { NoMatchingAssetError, type PickResult, pickAsset } from '../assets/picker';
import type { HostTarget } from '../assets/target';
import { canonicalName, chooseBinaries } from '../binaries/binaries';
import {
  algorithmsNeeded,
  type ChecksumRecordSource,
  decideVerification,
  findChecksumSources,
  type HashAlgorithm,
  hashFile,
  parseChecksumFile,
  verifyDigest,
} from '../checksums/checksums';
import type { GithubAsset, GithubRelease } from '../client/releases';
import { hasShebang, readElfFile, validateElf } from '../elf/elf';
import type { GithubOverrides, InstalledBinary } from '../types';

export interface StageOptions {
  repo: string;
  release: GithubRelease;
  target: HostTarget;
  overrides: GithubOverrides;
  maxAssetBytes: number;
  requireChecksum: boolean;
  download: Omit<DownloadOptions, 'maxBytes'>;
  log: (line: string) => void;
  progress: (percent: number, stage: string) => void;
  signal?: AbortSignal;
}

export interface Staged {
  dir: string;
  name: string;
  pick: PickResult<GithubAsset>;
  sha256: string;
  checksumSource: ChecksumRecordSource;
  binaries: InstalledBinary[];
}

/** Bytes the download may run ahead of the extraction. */
const TEE_BUFFER = 2 * 1024 * 1024;

/** Chooses the asset, or fails with every candidate and why. */
export function chooseAsset(
  release: GithubRelease,
  target: HostTarget,
  repoName: string,
  overrides: GithubOverrides,
  maxAssetBytes: number,
): PickResult<GithubAsset> {
  try {
    return pickAsset(release.assets, target, {
      toolName: overrides.binaryName ?? repoName,
      maxSizeBytes: maxAssetBytes,
      matching: overrides.matching,
      matchingRegex: overrides.matchingRegex,
      assetPattern: overrides.assetPattern,
      version: release.tag_name,
    });
  } catch (e) {
    if (e instanceof NoMatchingAssetError) {
      throw new AppError('no_matching_asset', e.message, {
        details: { candidates: e.candidates },
        hint: 'Choose an asset in the release picker, or set an asset pattern for this package.',
      });
    }
    throw e;
  }
}

/** Verifies the download against every checksum source the release offers; none at all is TOFU unless required. */
async function verify(
  opts: StageOptions,
  asset: GithubAsset,
  file: string,
  hashes: Partial<Record<HashAlgorithm, string>> & { sha256: string },
): Promise<ChecksumRecordSource> {
  const sources = findChecksumSources(asset.name, opts.release.assets);
  if (decideVerification({ sources, requireChecksum: opts.requireChecksum, assetName: asset.name }) === 'tofu') {
    opts.log(`No checksum is published for ${asset.name}; recording sha256 ${hashes.sha256} on first use.`);
    return 'tofu';
  }
  let first: ChecksumRecordSource | null = null;
  for (const s of sources) {
    const expected =
      s.expected ?? parseChecksumFile(await downloadText(s.asset!, opts.download), asset.name, { sidecar: s.kind === 'sidecar', algorithm: s.algorithm });
    // A checksums file may use an algorithm not known before it was read (e.g. md5): hash the file for it then.
    if (!hashes[expected.algorithm]) Object.assign(hashes, await hashFile(file, [expected.algorithm]));
    verifyDigest(expected, hashes, { assetName: asset.name, source: s.kind });
    opts.log(`Checksum verified (${s.kind}${s.asset && s.kind !== 'api_digest' ? `: ${s.asset.name}` : ''}, ${expected.algorithm}).`);
    first ??= s.kind;
  }
  return first!;
}

/**
 * An ELF for the target (class, machine, loader), or — only when the package declares it with
 * binaryPath — a script whose interpreter exists here (a script is never picked on its own).
 */
async function validateBinary(file: string, b: { rule: string; kind: string; path: string }, target: HostTarget) {
  if (b.rule === 'binary_path' && b.kind === 'script') {
    const interpreter = hasShebang(fs.readFileSync(file).subarray(0, 256));
    if (!interpreter || !fs.existsSync(interpreter)) {
      throw new AppError('no_binary', `${b.path} is a script whose interpreter ${interpreter ?? '(none)'} does not exist here.`);
    }
    return { arch: 'script', libc: 'script', interp: interpreter };
  }
  return validateElf(await readElfFile(file), target, { interpreterExists: (p) => fs.existsSync(p) });
}

/**
 * Downloads, verifies, extracts, chooses and validates the binaries of a release into a staging
 * folder under `scratch`. Nothing outside `scratch` is touched.
 */
export async function stageRelease(scratch: string, opts: StageOptions): Promise<Staged> {
  const repoName = opts.repo.split('/')[1];
  const pick = chooseAsset(opts.release, opts.target, repoName, opts.overrides, opts.maxAssetBytes);
  const asset = pick.chosen.asset;
  opts.log(`Asset: ${asset.name} (score ${pick.chosen.score}: ${pick.chosen.reasons.join(', ')}); ${pick.rejected.length} rejected.`);
  opts.progress(20, 'downloading');
  const file = path.join(scratch, 'asset');
  const x = path.join(scratch, 'x');
  const tool = (opts.overrides.binaryName ?? repoName).toLowerCase();
  // A file with an extension, no exec bit and not named like the tool can never be chosen: it is not written.
  const keepFile = (p: string, mode: number) => {
    const base = p.split('/').pop()!.toLowerCase();
    return !!opts.overrides.binaryPath || (mode & 0o111) !== 0 || !base.includes('.') || base.startsWith(tool);
  };
  const extractOpts = { fileName: asset.name, maxTotalBytes: 2 * opts.maxAssetBytes, signal: opts.signal, keepFile };
  // Extracted into scratch while it downloads; nothing leaves scratch before the checksums are verified.
  // Blocks come out as they went in: a byte-mode reader would copy whatever is buffered into one piece.
  const tee = new PassThrough({ writableHighWaterMark: TEE_BUFFER, readableObjectMode: true, readableHighWaterMark: TEE_BUFFER / DOWNLOAD_BLOCK });
  tee.on('error', () => undefined);
  const inFlight = extractArchiveStream(tee, x, { ...extractOpts, size: asset.size }).then(
    (result) => ({ result, error: null }),
    (error: unknown) => ({ result: null, error }),
  );
  let got: Awaited<ReturnType<typeof downloadAsset>>;
  try {
    got = await downloadAsset(asset, file, {
      ...opts.download,
      algorithms: algorithmsNeeded(findChecksumSources(asset.name, opts.release.assets)),
      maxBytes: opts.maxAssetBytes,
      onProgress: (n, total) => opts.progress(20 + Math.round((n / Math.max(total, 1)) * 30), 'downloading and extracting'),
      tee,
    });
  } finally {
    // A download that failed (or never started) ends the extraction; none may still be writing when scratch is removed.
    if (!tee.writableEnded) tee.destroy();
    await inFlight;
  }
  const streamed = await inFlight;
  let extracted = got.teed ? streamed.result : null;
  opts.log(`Downloaded ${got.size} bytes, sha256 ${got.hashes.sha256}.`);
  if (extracted) opts.log(`Extracted ${extracted.entries.length} entries (${extracted.format}) while downloading; none is used before the checksums match.`);
  opts.progress(52, 'verifying');
  const checksumSource = await verify(opts, asset, file, got.hashes);
  if (got.teed && streamed.error) throw streamed.error;
  if (!extracted) {
    // A zip (read by random access), or a download that was retried: extract the verified file.
    opts.progress(58, 'extracting');
    fs.rmSync(x, { recursive: true, force: true });
    extracted = await extractArchive(file, x, extractOpts);
    opts.log(`Extracted ${extracted.entries.length} entries (${extracted.format}).`);
  }
  const { chosen, skipped } = chooseBinaries(
    extracted.entries.map((e) => ({
      path: e.path,
      mode: e.mode,
      size: e.size,
      type: e.hardlink
        ? ('hardlink' as const)
        : e.type === 'symlink'
          ? ('symlink' as const)
          : e.type === 'file'
            ? ('file' as const)
            : e.type === 'dir'
              ? ('dir' as const)
              : ('other' as const),
      linkTarget: e.linkTarget,
      head: e.head,
    })),
    { toolName: opts.overrides.binaryName ?? repoName, binaryPath: opts.overrides.binaryPath, os: opts.target.os },
  );
  for (const s of skipped) opts.log(`Skipped ${s.path}: ${s.reason}`);
  opts.progress(65, 'validating');
  const stage = path.join(scratch, 'stage');
  fs.mkdirSync(stage, { mode: 0o755 });
  const binaries: InstalledBinary[] = [];
  for (const b of chosen) {
    const src = path.join(/*turbopackIgnore: true*/ x, b.path);
    const v = await validateBinary(src, b, opts.target);
    const dest = path.join(stage, b.installName);
    fs.copyFileSync(src, dest, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(dest, 0o755);
    binaries.push({ name: b.installName, source: b.path, libc: v.libc, interp: v.interp, machine: v.arch, size: fs.statSync(dest).size });
    opts.log(`Binary ${b.installName} (${b.path}): ${v.arch}, ${v.libc}${v.interp ? `, loader ${v.interp}` : ''}.`);
  }
  return { dir: stage, name: canonicalName(repoName, chosen), pick, sha256: got.hashes.sha256, checksumSource, binaries };
}
