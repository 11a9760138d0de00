/**
 * The scanner's worker-thread entry (see pool.ts): scans one skill per message. Imports nothing but
 * the scanner, so it runs the same from the TypeScript sources and from its own production bundle.
 */
import { parentPort } from 'node:worker_threads';
import { type FolderLoad, type FolderLoadOptions, loadSkillFolderSync } from '../folder-load';
import { type PackedFiles, unpackFiles } from './packed';
import { type DeclaredCapabilities, fileScans, type ScanOptions, scanSkill } from './scan';

export interface ScanRequest {
  id: number;
  files: PackedFiles;
  declared: DeclaredCapabilities;
  opts: ScanOptions;
}

/** A skill folder to load (loadSkillFolderSync). */
export interface LoadRequest {
  id: number;
  load: string;
  opts: FolderLoadOptions;
}

/** A scan, a load, content hashes whose scan the pool's caller keeps, or the order to drop the file scans this thread keeps. */
export type WorkerMessage = ScanRequest | LoadRequest | { knownScans: string[] } | { forget: true };

// process-wide: the state of this scan worker thread, which serves one pool
const knownScans = new Set<string>();

/** The bytes read go back moved, not copied; a Buffer that shares its memory (a small one from the pool) is sent as a copy. */
function transferables(loaded: FolderLoad): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const [, b] of loaded.listing?.contents ?? []) if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength) out.add(b.buffer as ArrayBuffer);
  return [...out];
}

const port = parentPort;
if (port) {
  port.on('message', (req: WorkerMessage) => {
    if ('forget' in req) return fileScans.clear();
    if ('knownScans' in req) {
      for (const h of req.knownScans) knownScans.add(h);
      return;
    }
    try {
      if ('load' in req) {
        const loaded = loadSkillFolderSync(req.load, req.opts, knownScans);
        port.postMessage({ id: req.id, loaded }, transferables(loaded));
      } else port.postMessage({ id: req.id, result: scanSkill(unpackFiles(req.files), req.declared, req.opts) });
    } catch (e) {
      port.postMessage({ id: req.id, failure: e instanceof Error ? e.message : String(e) });
    }
  });
  port.postMessage({ ready: true });
}
