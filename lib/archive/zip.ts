/**
 * Zip extraction with yauzl: the central directory is read and checked (entry count,
 * names, declared sizes) before a single byte is inflated; while inflating, real bytes
 * are counted against the caps and the declared size, and the CRC-32 is verified.
 */
import zlib from 'node:zlib';
import yauzl, { type Entry, type LocalFileHeader, type ZipFile } from 'yauzl';
import { AppError } from '@/lib/core/errors';
import { type ExtractSink, tooLarge, unsafe } from './sink';

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
const SPECIAL: Record<number, string> = { [0o010000]: 'FIFO', [0o020000]: 'character device', [0o060000]: 'block device', [0o140000]: 'socket' };
const MAX_LINK_TARGET = 4096;

interface Planned {
  entry: Entry;
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  mode: number;
  reason?: string;
}

const openZip = (file: string) =>
  new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false, strictFileNames: false }, (err, zf) =>
      err ? reject(err) : resolve(zf),
    ),
  );

const readAll = (zf: ZipFile, max: number) =>
  new Promise<Entry[]>((resolve, reject) => {
    const list: Entry[] = [];
    zf.on('entry', (e: Entry) => {
      list.push(e);
      if (list.length > max) {
        reject(tooLarge(`Archive has more than ${max} entries.`, { maxEntries: max }));
        return;
      }
      zf.readEntry();
    });
    zf.once('end', () => resolve(list));
    zf.once('error', reject);
    zf.readEntry();
  });

const openStream = (zf: ZipFile, e: Entry) =>
  new Promise<NodeJS.ReadableStream>((resolve, reject) => zf.openReadStream(e, (err, s) => (err ? reject(err) : resolve(s))));

function decodeName(e: Entry): string {
  const raw = e.fileName as unknown as Buffer;
  return yauzl.getFileNameLowLevel(e.generalPurposeBitFlag, raw, e.extraFields, false);
}

const readLocalHeader = (zf: ZipFile, e: Entry) =>
  new Promise<LocalFileHeader>((resolve, reject) => zf.readLocalFileHeader(e, (err, h) => (err ? reject(err) : resolve(h))));

/** The local header must repeat the central directory's name byte for byte (readers that trust either one must agree). */
async function checkLocalName(zf: ZipFile, e: Entry, name: string): Promise<void> {
  const local = await readLocalHeader(zf, e);
  if (!local.fileName.equals(e.fileName as unknown as Buffer)) {
    throw unsafe(`Archive entry ${JSON.stringify(name)} has another name in its local header (${JSON.stringify(local.fileName.toString('utf8'))}).`, name);
  }
}

function classify(e: Entry, p: string, name: string): Planned {
  const madeByUnix = e.versionMadeBy >> 8 === 3;
  const unixMode = madeByUnix ? (e.externalFileAttributes >>> 16) & 0xffff : 0;
  const fmt = unixMode & S_IFMT;
  const isDir = name.endsWith('/') || fmt === S_IFDIR || (!madeByUnix && (e.externalFileAttributes & 0x10) !== 0);
  if (isDir) return { entry: e, path: p, kind: 'dir', mode: 0o755 };
  if (fmt === S_IFLNK) return { entry: e, path: p, kind: 'symlink', mode: unixMode & 0o777 };
  if (fmt !== 0 && fmt !== S_IFREG) {
    return { entry: e, path: p, kind: 'other', mode: unixMode & 0o777, reason: `${SPECIAL[fmt] ?? 'special'} entries are not extracted` };
  }
  return { entry: e, path: p, kind: 'file', mode: madeByUnix && unixMode ? unixMode & 0o777 : 0o644 };
}

/**
 * Inflated bytes of one entry: counted against the declared size (a zip bomb whose central
 * directory lies is stopped here), CRC-32 verified at the end. Pulls lazily: nothing is
 * inflated before the consumer asks for it.
 */
async function* verified(stream: NodeJS.ReadableStream, p: string, declared: number, crc: number): AsyncGenerator<Buffer> {
  let size = 0;
  let sum = 0;
  try {
    for await (const raw of stream) {
      const chunk = raw as Buffer;
      size += chunk.length;
      if (size > declared) throw tooLarge(`Archive entry ${JSON.stringify(p)} inflates beyond its declared size of ${declared} bytes.`, { entry: p, declared });
      sum = zlib.crc32(chunk, sum);
      yield chunk;
    }
  } finally {
    (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
  if (size !== declared) throw unsafe(`Archive entry ${JSON.stringify(p)} is truncated (${size} of ${declared} bytes).`, p);
  if (sum >>> 0 !== crc >>> 0) throw unsafe(`Archive entry ${JSON.stringify(p)} fails its CRC-32 check.`, p);
}

export async function extractZip(file: string, sink: ExtractSink): Promise<void> {
  let zf: ZipFile;
  try {
    zf = await openZip(file);
  } catch (e) {
    throw unsafe(`The zip archive is corrupt: ${(e as Error).message}`, '');
  }
  try {
    // 1. End-of-central-directory: entry count before anything is read.
    if (zf.entryCount > sink.limits.maxEntries) {
      throw tooLarge(`Archive has ${zf.entryCount} entries, more than ${sink.limits.maxEntries}.`, {
        entries: zf.entryCount,
        maxEntries: sink.limits.maxEntries,
      });
    }
    // 2. Central directory: names, types, declared sizes — all checked before extraction.
    const all = await readAll(zf, sink.limits.maxEntries).catch((e: unknown) => {
      throw e instanceof AppError ? e : unsafe(`The zip central directory is corrupt: ${(e as Error).message}`, '');
    });
    const plan: Planned[] = [];
    let declaredTotal = 0;
    for (const e of all) {
      const name = decodeName(e);
      const p = sink.admit(name);
      if (e.isEncrypted()) {
        throw new AppError('encrypted_archive', `Archive entry ${JSON.stringify(name)} is encrypted.`, { details: { entry: name } });
      }
      if (e.compressionMethod !== 0 && e.compressionMethod !== 8) {
        throw new AppError('unsupported_format', `Archive entry ${JSON.stringify(name)} uses unsupported compression method ${e.compressionMethod}.`);
      }
      await checkLocalName(zf, e, name);
      const planned = classify(e, p, name);
      if (planned.kind === 'file') {
        sink.checkDeclared(p, e.uncompressedSize, declaredTotal);
        declaredTotal += e.uncompressedSize;
      }
      plan.push(planned);
    }
    // 3. Extract, counting real bytes (declared sizes can lie).
    for (const item of plan) {
      sink.checkAborted();
      const { entry, path: p } = item;
      if (item.kind === 'dir') await sink.addDir(p);
      else if (item.kind === 'other') sink.addSkipped(p, item.reason ?? 'not extracted', item.mode);
      else if (item.kind === 'symlink') {
        if (entry.uncompressedSize > MAX_LINK_TARGET) throw unsafe(`Symlink entry ${JSON.stringify(p)} has an oversized target.`, p);
        const chunks: Buffer[] = [];
        for await (const c of verified(await openStream(zf, entry), p, entry.uncompressedSize, entry.crc32)) chunks.push(c);
        sink.addLink(p, Buffer.concat(chunks).toString('utf8'), false, item.mode);
      } else {
        const stream = (await openStream(zf, entry)) as NodeJS.ReadableStream & { destroy(): void };
        try {
          await sink.addFile(p, item.mode, entry.uncompressedSize, verified(stream, p, entry.uncompressedSize, entry.crc32));
        } finally {
          stream.destroy(); // also when addFile failed before it pulled a byte
        }
      }
    }
  } catch (e) {
    if (e instanceof AppError || (e as Error).name === 'AbortError') throw e;
    throw unsafe(`The zip archive is corrupt: ${(e as Error).message}`, '');
  } finally {
    zf.close();
  }
}
