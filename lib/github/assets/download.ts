import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { AppError } from '@/lib/core/errors';
import type { HashAlgorithm } from '../checksums/checksums';
import { sharedBlock, WorkerHasher } from '../checksums/hash-worker';
import { fetchWithHops, type HopPolicy, readCapped } from '../client/http';
import type { GithubAsset } from '../client/releases';

export const CHECKSUM_FILE_CAP = 1024 * 1024;

export interface DownloadOptions {
  policy: HopPolicy;
  token?: string | null;
  userAgent: string;
  maxBytes: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  onProgress?: (received: number, total: number) => void;
  /** Abandon a download that sends nothing for this long (default STALL_MS). */
  stallMs?: number;
  /** Digests to compute while streaming (sha256 always); others are computed later only if a source needs them. */
  algorithms?: readonly HashAlgorithm[];
  /**
   * Also receives the bytes of the first attempt as they arrive (its back-pressure is respected);
   * ended after the last byte, destroyed when that attempt fails. A consumer that stops reading
   * (destroys it) does not stop the download.
   */
  tee?: Writable;
}

export interface Downloaded {
  file: string;
  size: number;
  /** Hex digests of the file: sha256 and the requested algorithms. */
  hashes: Partial<Record<HashAlgorithm, string>> & { sha256: string };
  /** Whether the tee was offered every byte (false after a retry: read the file instead). */
  teed: boolean;
}

/**
 * The anonymous browser_download_url first (public repositories); with a token, the asset API URL
 * as a fallback (private repositories), following its redirect without the token.
 */
async function open(asset: GithubAsset, opts: DownloadOptions, accept: string): Promise<Response> {
  const headers = { 'user-agent': opts.userAgent, accept };
  const pub = await fetchWithHops(new URL(asset.browser_download_url), opts.policy, { headers, token: null, signal: opts.signal, fetch: opts.fetch });
  if (pub.res.ok || !opts.token || (pub.res.status !== 404 && pub.res.status !== 403)) return pub.res;
  await pub.res.body?.cancel();
  const api = await fetchWithHops(new URL(asset.url), opts.policy, {
    headers: { ...headers, accept: 'application/octet-stream' },
    token: opts.token,
    signal: opts.signal,
    fetch: opts.fetch,
  });
  return api.res;
}

/** A download that sends nothing for this long is abandoned (and tried once more). */
export const STALL_MS = 60_000;

async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number, name: string) {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Reject first: cancelling ends the pending read as "done", which must not win the race.
      reject(new AppError('download_failed', `${name} stalled: no data for ${Math.round(ms / 1000)} s.`));
      void reader.cancel().catch(() => undefined);
    }, ms);
  });
  try {
    return await Promise.race([reader.read(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/** Streams an asset to `file` (created exclusively, mode 0600), hashing while it streams, within the size cap. */
export async function downloadAsset(asset: GithubAsset, file: string, opts: DownloadOptions): Promise<Downloaded> {
  if (asset.size > opts.maxBytes) {
    throw new AppError('asset_too_large', `${asset.name} is ${asset.size} bytes; the limit is ${opts.maxBytes}.`, {
      hint: 'Raise "Largest release asset" in Settings → GitHub if this is expected.',
    });
  }
  for (let attempt = 1; ; attempt++) {
    const tee = attempt === 1 ? opts.tee : undefined;
    try {
      const got = await downloadOnce(asset, file, opts, tee);
      tee?.end();
      return { ...got, teed: !!tee };
    } catch (e) {
      tee?.destroy(e as Error);
      // A truncated transfer is tried once more; everything else fails at once.
      if (!(e instanceof AppError && e.code === 'download_failed') || attempt >= 2) throw e;
      fs.rmSync(file, { force: true });
    }
  }
}

/**
 * Bytes written to the file and handed to the tee at a time: network reads are small (~64 KiB), and
 * each one would cost a write to the threadpool, a decompressor call and parser splits.
 */
export const DOWNLOAD_BLOCK = 256 * 1024;

/**
 * Collects network reads into blocks of DOWNLOAD_BLOCK; each block is hashed in a worker thread,
 * written to the file by the threadpool (one write in flight while the next block arrives) and
 * handed to the tee, so the event loop only moves bytes.
 */
class BlockFeed {
  private parts: Uint8Array[] = [];
  private bytes = 0;
  private writing: Promise<void> = Promise.resolve();
  constructor(
    private readonly file: fsp.FileHandle,
    private readonly hasher: WorkerHasher,
    private readonly tee: Writable | undefined,
  ) {}

  get pending(): boolean {
    return this.bytes > 0;
  }

  async push(chunk: Uint8Array): Promise<void> {
    this.parts.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes >= DOWNLOAD_BLOCK) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.bytes) return;
    const block = sharedBlock(this.parts, this.bytes);
    this.parts = [];
    this.bytes = 0;
    await this.hasher.update(block);
    await this.writing;
    this.writing = writeAll(this.file, block);
    // A failed write surfaces at the next flush or at settle(); never as an unhandled rejection.
    this.writing.catch(() => undefined);
    if (this.tee && !this.tee.destroyed) await feed(this.tee, block);
  }

  /** Waits for the last write; throws its error. */
  settle(): Promise<void> {
    return this.writing;
  }
}

async function writeAll(fh: fsp.FileHandle, block: Uint8Array): Promise<void> {
  let off = 0;
  while (off < block.length) off += (await fh.write(block, off, block.length - off)).bytesWritten;
}

/** Whether `p` settles before the event loop turns (the data was already there). */
function settlesAtOnce(p: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => setImmediate(() => r(false))),
  ]);
}

/** Hands a chunk to the tee, waiting while it is full; a tee that was destroyed is skipped. */
async function feed(tee: Writable, chunk: Uint8Array): Promise<void> {
  if (tee.destroyed || tee.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      tee.off('drain', done);
      tee.off('close', done);
      resolve();
    };
    tee.on('drain', done);
    tee.on('close', done);
  });
}

async function downloadOnce(asset: GithubAsset, file: string, opts: DownloadOptions, tee: Writable | undefined): Promise<Omit<Downloaded, 'teed'>> {
  const res = await open(asset, opts, 'application/octet-stream');
  if (!res.ok) {
    await res.body?.cancel();
    throw new AppError('download_failed', `Downloading ${asset.name} failed: HTTP ${res.status}.`, { details: { status: res.status } });
  }
  const hasher = new WorkerHasher(opts.algorithms ?? []);
  let fh: fsp.FileHandle | null = null;
  let blocks: BlockFeed | null = null;
  let size = 0;
  try {
    fh = await fsp.open(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    blocks = new BlockFeed(fh, hasher, tee);
    const reader = res.body!.getReader();
    for (;;) {
      const next = readWithin(reader, opts.stallMs ?? STALL_MS, asset.name);
      // The network makes us wait: the file and the tee get what has arrived so far rather than a full block.
      if (blocks.pending && !(await settlesAtOnce(next))) await blocks.flush();
      const { done, value } = await next;
      if (done) break;
      size += value.length;
      if (size > opts.maxBytes || size > asset.size) {
        await reader.cancel();
        throw new AppError(size > opts.maxBytes ? 'asset_too_large' : 'download_failed', `${asset.name} sent more than its declared ${asset.size} bytes.`);
      }
      await blocks.push(value);
      opts.onProgress?.(size, asset.size);
    }
    await blocks.flush();
    await blocks.settle();
    // No fsync: the file is scratch, removed at boot after a crash; what is installed is synced when committed.
  } catch (e) {
    hasher.close();
    if ((e as NodeJS.ErrnoException).code === 'ENOSPC') throw new AppError('disk_full', `The disk filled up while downloading ${asset.name}.`);
    if (!(e instanceof AppError) && !(e as NodeJS.ErrnoException).syscall && !opts.signal?.aborted)
      throw new AppError('download_failed', `${asset.name} broke off after ${size} of ${asset.size} bytes: ${(e as Error).message}.`, { cause: e });
    throw e;
  } finally {
    // A write still in flight after a failure must end before the file is closed (and removed).
    await blocks?.settle().catch(() => undefined);
    await fh?.close();
  }
  if (size !== asset.size) {
    hasher.close();
    throw new AppError('download_failed', `${asset.name} arrived with ${size} of ${asset.size} bytes.`);
  }
  return { file, size, hashes: await hasher.digests() };
}

/** A checksum file (sidecar or global list), capped at 1 MiB. */
export async function downloadText(asset: GithubAsset, opts: Omit<DownloadOptions, 'maxBytes'>): Promise<string> {
  if (asset.size > CHECKSUM_FILE_CAP) throw new AppError('upstream_too_large', `${asset.name} is larger than ${CHECKSUM_FILE_CAP} bytes.`);
  const res = await open(asset, { ...opts, maxBytes: CHECKSUM_FILE_CAP }, 'application/octet-stream');
  if (!res.ok) {
    await res.body?.cancel();
    throw new AppError('download_failed', `Downloading ${asset.name} failed: HTTP ${res.status}.`);
  }
  return (await readCapped(res, CHECKSUM_FILE_CAP, asset.name)).toString('utf8');
}
