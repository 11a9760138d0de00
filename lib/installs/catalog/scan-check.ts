// The scanner's say over a skill install into a sandbox: the catalog version about to be installed
// (its install steps run package managers in the sandbox) is refused while its content has critical
// findings no admin acknowledged. The verdict stored for its content hash is used; else it is scanned.
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppDb } from '@/db/client';
import { listSkillFiles } from '../../skills/files';
import { parseSkillMd } from '../../skills/manifest';
import { scanSkillDir } from '../../skills/service/build';
import { managedStore } from '../../skills/service/roots';
import { assertScanAllows } from '../../skills/service/scan-gate';
import { loadScanResult } from '../../skills/service/scan-store';
import { versionDir } from '../../skills/store/manifest';
import type { ScanResult } from '../../skills/types';
import type { CatalogSkill } from '../records/store';

async function scanVersion(dataDir: string, skill: CatalogSkill): Promise<ScanResult> {
  const dir = versionDir(path.resolve(managedStore(dataDir).storeDir), skill.key, skill.version);
  try {
    const contents = new Map<string, Buffer>();
    const files = await listSkillFiles(dir, { onFile: (p, b) => contents.set(p, b) });
    const text = contents.get('SKILL.md')?.toString('utf8') ?? (await fsp.readFile(path.join(dir, 'SKILL.md'), 'utf8'));
    return await scanSkillDir(dir, files, parseSkillMd(text, { dirName: skill.key }).manifest, contents);
  } catch (e) {
    return { verdict: 'error', findings: [], filesScanned: 0, error: `the stored version could not be read: ${(e as Error).message}` };
  }
}

/** Refuses (scan_blocked) a catalog version whose content is blocked by the scanner and not acknowledged. */
export async function assertInstallScanAllows(db: AppDb, dataDir: string, skill: CatalogSkill): Promise<void> {
  const scan = (await loadScanResult(db, skill.contentHash)) ?? (await scanVersion(dataDir, skill));
  await assertScanAllows(db, { name: skill.name, contentHash: skill.contentHash, scan }, `installing ${skill.version} into a sandbox`);
}
