// Ways of reading a sandbox's output folder as a sequence of entries, without anything running in
// the sandbox: an engine's archive (a tar stream, parsed here) or a remote's list-and-read file API.
// A file's bytes are read only when the consumer takes `body`; otherwise they are skipped over.
import path from 'node:path/posix';
import type { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { AppError } from '../../core/errors';
import { trimEndChar } from '../../core/text';
import type { SandboxBackend } from '../backend';
import { normaliseName } from './intake';

export type EntryKind = 'file' | 'dir' | 'symlink' | 'hardlink' | 'device' | 'other';

export interface SourceEntry {
  /** Relative to the output folder, normalised; null when the name is unsafe. */
  rel: string | null;
  kind: EntryKind;
  size: number;
  mode: number;
  mtime?: Date;
  /** A regular file's bytes (at most `size`); read it or leave it. */
  body?: () => Promise<AsyncIterable<Uint8Array>>;
}

function kindOf(type: ReadEntry['type']): EntryKind {
  switch (type) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
      return 'file';
    case 'Directory':
    case 'GNUDumpDir':
      return 'dir';
    case 'SymbolicLink':
      return 'symlink';
    case 'Link':
      return 'hardlink';
    case 'CharacterDevice':
    case 'BlockDevice':
    case 'FIFO':
      return 'device';
    default:
      return 'other';
  }
}

/** The entries of a tar stream whose top folder is `root` (as an engine archives a folder), one at a time. */
export async function* tarEntries(archive: Readable, root: string, signal: AbortSignal): AsyncGenerator<SourceEntry> {
  const parser = new Parser({ strict: true });
  const queue: ReadEntry[] = [];
  let done = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const fail = (e: Error) => {
    failure ??= e;
    poke();
  };
  parser.on('entry', (e: ReadEntry) => {
    queue.push(e);
    poke();
  });
  parser.on('end', () => {
    done = true;
    poke();
  });
  parser.on('error', fail);
  archive.on('error', fail);
  const onAbort = () => {
    const e = new AppError('sandbox_timeout', 'reading the output folder took too long');
    fail(e);
    archive.destroy(e);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  archive.pipe(parser as unknown as NodeJS.WritableStream);
  try {
    for (;;) {
      const e = queue.shift();
      if (e) {
        const raw = trimEndChar(e.path, '/');
        let rel: string | null = null;
        if (raw === root) {
          // The folder itself: a symlink standing in for it is reported; the folder is not an entry.
          if (kindOf(e.type) !== 'dir') yield { rel: null, kind: kindOf(e.type), size: 0, mode: e.mode ?? 0 };
          e.resume();
          continue;
        }
        if (raw.startsWith(`${root}/`)) rel = normaliseName(raw.slice(root.length + 1));
        const kind = kindOf(e.type);
        let taken = false;
        yield {
          rel,
          kind,
          size: kind === 'file' ? (e.size ?? 0) : 0,
          mode: (e.mode ?? 0o644) & 0o777,
          mtime: e.mtime instanceof Date ? e.mtime : undefined,
          body:
            kind === 'file'
              ? async () => {
                  taken = true;
                  return e;
                }
              : undefined,
        };
        if (!taken) e.resume();
        continue;
      }
      if (failure) throw failure;
      if (done) return;
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (!done) archive.destroy();
  }
}

/** The entries under `dir` from a backend's list and read calls (a remote's file API), depth first. */
export async function* walkEntries(backend: SandboxBackend, id: string, dir: string, maxDepth: number, signal: AbortSignal): AsyncGenerator<SourceEntry> {
  const stack: { abs: string; depth: number }[] = [{ abs: dir, depth: 0 }];
  while (stack.length) {
    const { abs, depth } = stack.pop() as { abs: string; depth: number };
    if (signal.aborted) throw new AppError('sandbox_timeout', 'reading the output folder took too long');
    let list: Awaited<ReturnType<SandboxBackend['listFiles']>>;
    try {
      list = await backend.listFiles(id, abs);
    } catch (e) {
      if (depth === 0 && (e as { code?: string }).code === 'not_found') return;
      throw e;
    }
    for (const f of list.sort((a, b) => b.name.localeCompare(a.name))) {
      const full = f.path || path.join(abs, f.name);
      const rel = full.startsWith(`${dir}/`) ? normaliseName(full.slice(dir.length + 1)) : null;
      if (f.type === 'dir' && rel) {
        if (depth + 1 < maxDepth) stack.push({ abs: path.join(dir, rel), depth: depth + 1 });
        yield { rel, kind: 'dir', size: 0, mode: 0o755 };
        continue;
      }
      yield {
        rel,
        kind: f.type === 'file' ? 'file' : f.type === 'symlink' ? 'symlink' : f.type === 'dir' ? 'dir' : 'other',
        size: f.size,
        mode: 0o644,
        mtime: f.modifiedAt,
        body: f.type === 'file' && rel ? async () => backend.readFile(id, path.join(dir, rel), f.size) : undefined,
      };
    }
  }
}
