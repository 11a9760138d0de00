/**
 * The scanner's worker-thread entry (see pool.ts): scans one skill per message. Imports nothing but
 * the scanner, so it runs the same from the TypeScript sources and from its own production bundle.
 */
import { parentPort } from 'node:worker_threads';
import { type PackedFiles, unpackFiles } from './packed';
import { type DeclaredCapabilities, type ScanOptions, scanSkill } from './scan';

export interface ScanRequest {
  id: number;
  files: PackedFiles;
  declared: DeclaredCapabilities;
  opts: ScanOptions;
}

const port = parentPort;
if (port) {
  port.on('message', (req: ScanRequest) => {
    try {
      port.postMessage({ id: req.id, result: scanSkill(unpackFiles(req.files), req.declared, req.opts) });
    } catch (e) {
      port.postMessage({ id: req.id, failure: e instanceof Error ? e.message : String(e) });
    }
  });
  port.postMessage({ ready: true });
}
