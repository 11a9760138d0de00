/** Magic-byte format detection and streaming decompressors for archives and downloaded files. */
import { Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { Decompress as ZstdDecompress } from 'fzstd';
import unbzip2 from 'unbzip2-stream';
// CommonJS bundle: a default import works under Node ESM, vitest and bundlers alike.
import xzDecompress from 'xz-decompress';

const { XzReadableStream } = xzDecompress;

/** What the first bytes of a file say it is. */
export type MagicFormat = 'gzip' | 'zip' | 'elf' | 'xz' | 'bzip2' | 'zstd' | 'tar' | 'script' | 'unknown';
export type Compression = 'gzip' | 'xz' | 'bzip2' | 'zstd';

/** Bytes needed to tell every format apart (`ustar` sits at offset 257). */
export const DETECT_BYTES = 512;

const startsWith = (head: Buffer, magic: readonly number[], at = 0): boolean => head.length >= at + magic.length && magic.every((b, i) => head[at + i] === b);

/** Detect a format by magic bytes, never by file name. Pass at least the first 262 bytes. */
export function detectFormat(head: Buffer): MagicFormat {
  if (startsWith(head, [0x1f, 0x8b])) return 'gzip';
  // local file header, or the end-of-central-directory record of an empty zip
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return 'elf';
  if (startsWith(head, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return 'xz';
  // "BZh" + block size digit 1-9
  if (startsWith(head, [0x42, 0x5a, 0x68]) && head.length > 3 && head[3]! >= 0x31 && head[3]! <= 0x39) return 'bzip2';
  if (startsWith(head, [0x28, 0xb5, 0x2f, 0xfd])) return 'zstd';
  if (startsWith(head, [0x75, 0x73, 0x74, 0x61, 0x72], 257)) return 'tar'; // "ustar" (POSIX and GNU)
  if (startsWith(head, [0x23, 0x21])) return 'script'; // "#!"
  return 'unknown';
}

export function isCompression(f: MagicFormat): f is Compression {
  return f === 'gzip' || f === 'xz' || f === 'bzip2' || f === 'zstd';
}

/** Short name used in the `format` of an extraction result. */
export const COMPRESSION_SUFFIX: Record<Compression, string> = { gzip: 'gz', xz: 'xz', bzip2: 'bz2', zstd: 'zst' };

/** `tool-linux.gz` → `tool-linux`; names that would be unsafe fall back to `asset`. */
export function stripCompressionSuffix(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const stripped = base.replace(/\.(gz|gzip|xz|bz2|bzip2|zst|zstd|tgz|txz|tbz2?|tzst)$/i, '');
  return safeBaseName(stripped);
}

/** A file name usable as one path segment. */
export function safeBaseName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/\0/g, '');
  return base === '' || base === '.' || base === '..' ? 'asset' : base;
}

/** Wrap an old-style (`through`) stream as a real Transform with error propagation. */
function wrapThrough(make: () => NodeJS.ReadWriteStream, what: string): Transform {
  let inner: NodeJS.ReadWriteStream;
  let failure: Error | null = null;
  let finish: ((e?: Error | null) => void) | null = null;
  return new Transform({
    construct(cb) {
      inner = make();
      inner.on('data', (d: Buffer) => this.push(d));
      inner.on('error', (e: Error) => {
        failure ??= new Error(`${what} data is corrupt (${e.message})`, { cause: e });
        // a broken unbzip2-stream never emits 'end': settle the flush here
        finish?.(failure);
        finish = null;
      });
      inner.on('end', () => {
        finish?.(failure);
        finish = null;
      });
      cb();
    },
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      if (failure) return cb(failure);
      try {
        inner.write(chunk);
      } catch (e) {
        failure ??= e as Error;
      }
      cb(failure);
    },
    flush(cb: TransformCallback) {
      if (failure) return cb(failure);
      finish = cb;
      try {
        inner.end();
      } catch (e) {
        failure ??= e as Error;
        finish?.(failure);
        finish = null;
      }
    },
  });
}

/** Largest zstd window we accept (zstd's own decoder refuses > 128 MiB without --long). */
export const ZSTD_MAX_WINDOW = 128 * 1024 * 1024;

/** Window size declared by a zstd frame header, or null when the header is incomplete. */
export function zstdWindowSize(h: Uint8Array): number | null {
  if (h.length < 6) return null;
  const fhd = h[4]!;
  const singleSegment = (fhd >> 5) & 1;
  if (!singleSegment) {
    const wd = h[5]!;
    const base = 2 ** (10 + (wd >> 3));
    return base + (base / 8) * (wd & 7);
  }
  const dictBytes = [0, 1, 2, 4][fhd & 3]!;
  const fcsFlag = fhd >> 6;
  const fcsBytes = [1, 2, 4, 8][fcsFlag]!;
  const at = 5 + dictBytes;
  if (h.length < at + fcsBytes) return null;
  let size = 0;
  for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + h[at + i]!;
  return fcsFlag === 1 ? size + 256 : size;
}

function zstdTransform(): Transform {
  let decoder: ZstdDecompress;
  let head: Buffer | null = Buffer.alloc(0);
  const feed = (chunk: Uint8Array, final: boolean) => decoder.push(chunk, final);
  return new Transform({
    construct(cb) {
      decoder = new ZstdDecompress((data) => {
        if (data.length) this.push(Buffer.from(data.buffer, data.byteOffset, data.length));
      });
      cb();
    },
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      try {
        if (head) {
          // fzstd allocates the declared window up front: refuse oversized windows before it does.
          head = Buffer.concat([head, chunk]);
          const ws = zstdWindowSize(head);
          if (ws === null && head.length < 18) return cb();
          if (ws !== null && ws > ZSTD_MAX_WINDOW) return cb(new Error(`zstd window of ${ws} bytes exceeds the ${ZSTD_MAX_WINDOW} byte limit`));
          chunk = head;
          head = null;
        }
        feed(chunk, false);
        cb();
      } catch (e) {
        cb(e as Error);
      }
    },
    flush(cb: TransformCallback) {
      try {
        if (head) {
          const ws = zstdWindowSize(head);
          if (ws !== null && ws > ZSTD_MAX_WINDOW) return cb(new Error('zstd window too large'));
          feed(head, false);
          head = null;
        }
        feed(new Uint8Array(0), true);
        cb();
      } catch (e) {
        cb(e as Error);
      }
    },
  });
}

/**
 * Output block of the gzip decompressor. Each block is one round trip to zlib's threadpool; with
 * zlib's 16 KiB default a 50 MiB asset takes 3,200 of them, which dominates on a busy machine.
 */
export const INFLATE_CHUNK = 256 * 1024;

/** Streaming decompression of `input` (pipe errors are forwarded to the returned stream). */
export function decompress(kind: Compression, input: Readable): Readable {
  let out: Readable;
  switch (kind) {
    case 'gzip': {
      // multi-member gzip files are concatenated, like gzip(1) does
      const gunzip = zlib.createGunzip({ chunkSize: INFLATE_CHUNK });
      out = input.pipe(gunzip);
      break;
    }
    case 'xz': {
      const web = new XzReadableStream(Readable.toWeb(input) as unknown as ReadableStream<Uint8Array>);
      out = Readable.fromWeb(web as unknown as import('node:stream/web').ReadableStream<Uint8Array>);
      return out; // toWeb forwards source errors and cancellation itself
    }
    case 'bzip2': {
      out = input.pipe(wrapThrough(unbzip2, 'bzip2'));
      break;
    }
    case 'zstd':
      out = input.pipe(zstdTransform());
      break;
  }
  input.on('error', (e) => out.destroy(e));
  out.on('close', () => input.destroy());
  return out;
}
