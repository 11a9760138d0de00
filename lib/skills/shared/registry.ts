/**
 * The shared store of each data dir this process serves, found by its store folder: code that reads
 * a stored version by path (sandbox installs, the catalog's version lookups) first brings the folder
 * up to date, so a job never depends on a version only another replica has.
 */
import path from 'node:path';
import { logger } from '../../core/logger';
import type { SharedSkillStore } from './shared-store';

// process-wide: keyed by a store folder, which one service alone holds (lockDirs); the composition root registers and drops it
const byStoreDir = new Map<string, SharedSkillStore>();

export function registerSharedStore(s: SharedSkillStore): void {
  byStoreDir.set(path.resolve(s.store.storeDir), s);
}

export function unregisterSharedStore(s: SharedSkillStore): void {
  const key = path.resolve(s.store.storeDir);
  if (byStoreDir.get(key) === s) byStoreDir.delete(key);
}

/** Brings the store folder up to date when a shared store serves it (a failure leaves what is there, logged). */
export async function freshStoreDir(storeDir: string): Promise<void> {
  await byStoreDir
    .get(path.resolve(storeDir))
    ?.fresh()
    .catch((e) => logger.warn('the skill store could not be brought from the database', { error: String(e) }));
}
