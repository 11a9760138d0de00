import fs from 'node:fs';
import path from 'node:path';
import type { LineSink } from '../../types';
import { findPipDistInfos, listPipDistributions } from './metadata';
import { pipRecordPaths, planPipRemoval, removePipFiles, resolvePipRecordPath } from './record';

export interface PipInstalledDist {
  name: string;
  version: string;
}

async function readRecord(distInfo: string): Promise<string[]> {
  const text = await fs.promises.readFile(path.join(distInfo, 'RECORD'), 'utf8').catch(() => '');
  return pipRecordPaths(text);
}

/** Moves the contents of `src` into `dst` file by file, so directories shared with other distributions (bin/, namespace packages) keep their other files. */
async function moveInto(src: string, dst: string): Promise<void> {
  await fs.promises.mkdir(dst, { recursive: true, mode: 0o755 });
  for (const e of await fs.promises.readdir(src, { withFileTypes: true })) {
    const s = path.join(src, e.name);
    const d = path.join(dst, e.name);
    const existing = await fs.promises.lstat(d).catch(() => undefined);
    if (e.isDirectory() && existing?.isDirectory()) {
      await moveInto(s, d);
      continue;
    }
    if (existing) await fs.promises.rm(d, { recursive: existing.isDirectory(), force: true });
    await fs.promises.rename(s, d);
  }
}

/**
 * Merges a finished `pip install --target <stage>` into the runtime target. pip's own --target
 * handling is not used because it skips (without --upgrade) or deletes wholesale (with it) every
 * existing top-level directory, which drops other packages' console scripts from bin/, and it leaves
 * the old version's dist-info behind. Here each file is renamed into place, then files only the
 * replaced versions listed are removed, together with their dist-info.
 */
export async function mergePipStage(stage: string, target: string, log?: LineSink): Promise<PipInstalledDist[]> {
  const dists = await listPipDistributions(stage);
  const newFiles = new Set<string>();
  const newDistInfos = new Set<string>();
  for (const d of dists) {
    newDistInfos.add(path.basename(d.location));
    for (const rel of await readRecord(d.location)) {
      try {
        newFiles.add(path.join(target, path.relative(stage, resolvePipRecordPath(stage, rel))));
      } catch {
        // Only used to keep files; an entry that cannot be placed keeps nothing.
      }
    }
  }

  const stale: string[] = [];
  const staleDistInfos: string[] = [];
  for (const d of dists) {
    for (const old of await findPipDistInfos(target, d.name)) {
      const oldDir = path.join(target, old);
      try {
        stale.push(...(await planPipRemoval(target, await readRecord(oldDir))).filter((f) => !newFiles.has(f)));
      } catch (e) {
        log?.(`Leaving files of ${old} in place: ${(e as Error).message}`, 'info');
      }
      if (!newDistInfos.has(old)) staleDistInfos.push(oldDir);
    }
  }

  await moveInto(stage, target);
  if (stale.length) await removePipFiles(target, stale);
  for (const dir of staleDistInfos) await fs.promises.rm(dir, { recursive: true, force: true });
  return dists.map((d) => ({ name: d.name, version: d.version }));
}
