/**
 * Safe extraction of an archive or a single downloaded file (a GitHub release asset, for one).
 *
 * The format is taken from magic bytes. Archives are streamed (never loaded whole) through
 * one entry policy (sink.ts): unsafe names fail the whole extraction, links are
 * recorded but never created, devices/FIFOs/sockets are skipped, sizes and counts are capped
 * with running counters. On any failure everything written is removed before the error is thrown.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '@/lib/core/errors';
import { COMPRESSION_SUFFIX, type Compression, DETECT_BYTES, decompress, detectFormat, isCompression, safeBaseName, stripCompressionSuffix } from './formats';
import { toArchiveError } from './fs-errors';
import { type ExtractedEntry, ExtractSink, type Limits, type SkippedEntry } from './sink';
import { extractTar } from './tar';
import { extractZip } from './zip';

export { detectFormat, type MagicFormat, stripCompressionSuffix } from './formats';
export { type EntryType, type ExtractedEntry, normalizeEntryName, type SkippedEntry } from './sink';

export type ArchiveFormat = 'tar.gz' | 'tar.xz' | 'tar.bz2' | 'tar.zst' | 'tar' | 'zip' | 'gz' | 'xz' | 'bz2' | 'zst' | 'elf' | 'script';

export interface ExtractOptions {
  /** Default 10,000. */
  maxEntries?: number;
  /** Uncompressed bytes over all entries; default 2 × 200 MiB. */
  maxTotalBytes?: number;
  /** Uncompressed bytes of one entry; default maxTotalBytes. */
  maxEntryBytes?: number;
  signal?: AbortSignal;
  /** The name the file was published under (e.g. a release asset's); names the one file of a raw or single-compressed download (default: the file's basename). */
  fileName?: string;
  /** Regular files to write to disk (default all); the rest are read through for the caps and their head only. */
  keepFile?: (path: string, mode: number) => boolean;
}

export interface ExtractResult {
  format: ArchiveFormat;
  entries: ExtractedEntry[];
  skipped: SkippedEntry[];
}

export const DEFAULT_MAX_ENTRIES = 10_000;
export const DEFAULT_MAX_TOTAL_BYTES = 2 * 200 * 1024 * 1024;

async function readHead(file: string, n: number): Promise<Buffer> {
  const fh = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Read the first `n` bytes of a stream, then hand back a stream of all of it. */
async function peek(stream: Readable, n: number): Promise<{ head: Buffer; all: Readable }> {
  const it = stream[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let len = 0;
  let done = false;
  while (len < n) {
    const r = await it.next();
    if (r.done) {
      done = true;
      break;
    }
    const b = r.value as Buffer;
    parts.push(b);
    len += b.length;
  }
  const head = Buffer.concat(parts);
  async function* replay(): AsyncGenerator<Buffer> {
    try {
      if (head.length) yield head;
      while (!done) {
        const r = await it.next();
        if (r.done) break;
        yield r.value as Buffer;
      }
    } finally {
      await it.return?.();
    }
  }
  return { head, all: Readable.from(replay(), { objectMode: false }) };
}

const isExecutableHead = (head: Buffer) => {
  const f = detectFormat(head);
  return f === 'elf' || f === 'script';
};

/**
 * Extract `file` into `destDir` (created if missing; must be empty if present).
 * Throws AppError: `unsupported_format`, `unsafe_archive`, `archive_too_large`,
 * `disk_full`, `permission`, `conflict` (destDir not empty); an AbortError when `signal` aborts.
 */
export async function extractArchive(file: string, destDir: string, opts: ExtractOptions = {}): Promise<ExtractResult> {
  opts.signal?.throwIfAborted();
  const head = await readHead(file, DETECT_BYTES);
  const input = () => fs.createReadStream(file, { signal: opts.signal });
  const size = async () => (await fsp.stat(file)).size;
  return extractFrom({ head, input, file, size }, destDir, { ...opts, fileName: opts.fileName ?? path.basename(file) });
}

/**
 * Extract an archive while it streams in (e.g. while it downloads), under the same entry policy.
 * A zip needs random access to its central directory: then nothing is written, `input` is
 * destroyed and the answer is null (extract the whole file with `extractArchive` instead).
 */
export async function extractArchiveStream(
  input: Readable,
  destDir: string,
  opts: ExtractOptions & { fileName: string; size?: number },
): Promise<ExtractResult | null> {
  opts.signal?.throwIfAborted();
  const { head, all } = await peek(input, DETECT_BYTES);
  try {
    if (detectFormat(head) === 'zip') return null;
    return await extractFrom({ head, input: () => all, size: async () => opts.size }, destDir, opts);
  } finally {
    // Whatever stopped reading, the producer must not wait on it.
    all.destroy();
    input.destroy();
  }
}

interface Source {
  head: Buffer;
  /** The whole input from its first byte; called once. */
  input: () => Readable;
  /** The file itself, when it is one (a zip is read by random access). */
  file?: string;
  size: () => Promise<number | undefined>;
}

async function extractFrom(src: Source, destDir: string, opts: ExtractOptions & { fileName: string }): Promise<ExtractResult> {
  const maxTotalBytes = opts.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const limits: Limits = {
    maxEntries: opts.maxEntries ?? DEFAULT_MAX_ENTRIES,
    maxTotalBytes,
    maxEntryBytes: Math.min(opts.maxEntryBytes ?? maxTotalBytes, maxTotalBytes),
  };
  const { fileName } = opts;
  const head = src.head;
  const magic = detectFormat(head);
  if (magic === 'unknown') {
    throw new AppError('unsupported_format', `${fileName} is not a supported archive or executable (unknown magic bytes).`, {
      details: { file: fileName, head: head.subarray(0, 8).toString('hex') },
    });
  }
  // Bytes of tar framing (headers, pax records, padding) allowed on top of the content cap.
  const rawCap = maxTotalBytes + limits.maxEntries * 4096 + 1024 * 1024;

  const sink = new ExtractSink(destDir, limits, opts.signal, opts.keepFile);
  await sink.open();
  const input = src.input;
  try {
    let format: ArchiveFormat;
    if (magic === 'zip') {
      if (!src.file) throw new Error('A zip is extracted from its file, not a stream.');
      format = 'zip';
      await extractZip(src.file, sink);
    } else if (magic === 'tar') {
      format = 'tar';
      await extractTar(input(), sink, rawCap);
    } else if (isCompression(magic)) {
      const kind: Compression = magic;
      const { head: inner, all } = await peek(decompress(kind, input()), DETECT_BYTES);
      if (detectFormat(inner) === 'tar') {
        format = `tar.${COMPRESSION_SUFFIX[kind]}` as ArchiveFormat;
        await extractTar(all, sink, rawCap);
      } else {
        format = COMPRESSION_SUFFIX[kind] as ArchiveFormat;
        const name = sink.admit(stripCompressionSuffix(fileName));
        try {
          await sink.addFile(name, isExecutableHead(inner) ? 0o755 : 0o644, undefined, all);
        } finally {
          all.destroy();
        }
      }
    } else {
      // ELF binary or shebang script: the asset itself is the one file.
      format = magic === 'elf' ? 'elf' : 'script';
      const name = sink.admit(safeBaseName(fileName));
      await sink.addFile(name, 0o755, await src.size(), input());
    }
    return { format, entries: sink.entries, skipped: sink.skipped };
  } catch (e) {
    await sink.cleanup();
    // streams torn down by the signal report "premature close" and the like: report the abort itself
    if (opts.signal?.aborted) throw opts.signal.reason;
    throw toArchiveError(e);
  }
}
