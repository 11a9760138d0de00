// The bundle side of boot recovery (E2B, CubeSandbox configs): a generation left building by a
// crash is marked deleted (nothing was made on any engine), and a maintenance sandbox no live job
// owns is removed through the backend, found by the labels every backend keeps as metadata.
import type { AppDb } from '@/db/client';
import type { SandboxBackend } from '../../sandbox/backend';
import { CONFIG_LABEL } from '../../sandbox/config/in-use';
import type { ConfigRow } from '../../sandbox/config/view';
import type { SandboxImage } from '../../sandbox/images/images';
import { markImageDeleted } from '../../sandbox/images/images';
import { isBundleRef, MAINTENANCE_LABEL } from '../../sandbox/images/snapshot-names';

export interface BundleRecoveryResult {
  images: { id: string; configId: string; plannedRef: string }[];
  sandboxes: string[];
  problems: string[];
}

export async function recoverBundleConfig(
  db: AppDb,
  row: ConfigRow,
  backend: SandboxBackend,
  input: { images: SandboxImage[]; busy: boolean; liveRunIds: string[] },
): Promise<BundleRecoveryResult> {
  const out: BundleRecoveryResult = { images: [], sandboxes: [], problems: [] };
  if (input.busy) return out;
  for (const img of input.images) {
    if (img.state !== 'building' || !isBundleRef(img.plannedRef)) continue;
    await markImageDeleted(db, img.id);
    out.images.push({ id: img.id, configId: row.id, plannedRef: img.plannedRef });
  }
  try {
    for (const s of await backend.list({ [CONFIG_LABEL]: row.id }, AbortSignal.timeout(30_000))) {
      const run = s.labels[MAINTENANCE_LABEL];
      if (!run || input.liveRunIds.includes(run)) continue;
      await backend.remove(s.id);
      out.sandboxes.push(s.id);
    }
  } catch (e) {
    out.problems.push(`config ${row.id}: leftover maintenance sandboxes could not be listed or removed: ${e instanceof Error ? e.message : String(e)}`);
  }
  return out;
}
