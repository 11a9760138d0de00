/**
 * Streaming tar extraction through node-tar's Parser (headers, pax, GNU long names),
 * with our own entry policy (sink.ts) on top: nothing is written by node-tar.
 */
import type { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { AppError } from '@/lib/core/errors';
import { type ExtractSink, unsafe } from './sink';

// process-wide: a constant table, never written
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const DEVICE_TYPES: Record<string, string> = {
  CharacterDevice: 'character device',
  BlockDevice: 'block device',
  FIFO: 'FIFO',
};

function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

async function handleEntry(entry: ReadEntry, sink: ExtractSink): Promise<void> {
  const rawName = String(entry.path ?? '');
  let p: string;
  try {
    p = sink.admit(rawName);
  } catch (e) {
    entry.resume();
    throw e;
  }
  const mode = entry.mode ?? 0o644;
  const type = String(entry.type);
  if (FILE_TYPES.has(type)) {
    await sink.addFile(p, mode, entry.size ?? 0, entry as unknown as AsyncIterable<Buffer>);
    return;
  }
  entry.resume();
  if (type === 'Directory' || type === 'GNUDumpDir') await sink.addDir(p);
  else if (type === 'SymbolicLink') sink.addLink(p, String(entry.linkpath ?? ''), false, 0o777);
  else if (type === 'Link') sink.addLink(p, String(entry.linkpath ?? ''), true, mode);
  else if (DEVICE_TYPES[type]) sink.addSkipped(p, `${DEVICE_TYPES[type]} entries are not extracted`, mode);
  else sink.addSkipped(p, `unsupported tar entry type ${type}`, mode);
}

/**
 * Parse a (decompressed) tar stream and extract it into the sink.
 * `rawCap` bounds the bytes read from `input`, so padding after the last entry cannot run forever.
 */
export async function extractTar(input: Readable, sink: ExtractSink, rawCap: number): Promise<void> {
  let failure: Error | null = null;
  let onFail: (e: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => {
    onFail = reject;
  });
  failed.catch(() => {});
  const fail = (e: unknown) => {
    if (failure) return;
    failure = asError(e);
    onFail(failure);
  };

  let chain: Promise<void> = Promise.resolve();
  let current: ReadEntry | null = null;
  const parser = new Parser({
    strict: true,
    maxMetaEntrySize: 1024 * 1024,
    onReadEntry: (entry: ReadEntry) => {
      chain = chain
        .then(() => {
          if (failure) return void entry.resume();
          current = entry;
          return handleEntry(entry, sink);
        })
        .catch((e) => {
          entry.resume();
          fail(e);
        });
    },
  });
  parser.on('error', (e: Error) => fail(failure ?? (e instanceof AppError ? e : unsafe(`The tar archive is corrupt: ${e.message}`, ''))));
  const ended = new Promise<void>((resolve) => parser.on('end', () => resolve()));

  let read = 0;
  try {
    for await (const chunk of input) {
      if (failure) break;
      sink.checkAborted();
      read += (chunk as Buffer).length;
      if (read > rawCap) throw new AppError('archive_too_large', `The tar stream is larger than ${rawCap} bytes.`, { details: { rawCap } });
      if (!parser.write(chunk as Buffer)) {
        await Promise.race([new Promise((r) => parser.once('drain', r)), failed]);
      }
    }
    if (!failure) {
      parser.end();
      await Promise.race([ended, failed]);
      await chain;
    }
  } catch (e) {
    fail(e);
  } finally {
    input.destroy();
  }
  if (failure) {
    parser.abort(failure);
    // the entry being written gets no more data: end its consumer
    (current as ReadEntry | null)?.destroy(failure);
    await chain.catch(() => {});
    throw failure;
  }
}
