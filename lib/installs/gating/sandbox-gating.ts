// One skill's gating in every Docker sandbox config's image, beside its verdict on the host. Each
// config's image is probed once for its bins (image-probe caches per image id), so asking again
// for the same images starts no container. A config whose engine or image cannot be reached says
// so in its entry; the others still answer.
import { asc, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import type { GatingResult, SkillManifest } from '../../skills/types';
import { listInstalls } from '../records/store';
import { type GateInConfigDeps, gateSkillsInConfig } from './image-gating';
import type { ConfigGatingOut, SandboxGatingOut } from './schema';

export interface SkillToGate {
  id: string;
  manifest: SkillManifest;
  /** The catalog's verdict on the host. */
  gating: Pick<GatingResult, 'eligible' | 'reasons'>;
}

export async function skillSandboxGating(deps: GateInConfigDeps & { db: AppDb }, skill: SkillToGate): Promise<SandboxGatingOut> {
  const m = skill.manifest;
  const rows = await deps.db
    .select({ id: sandboxConfigs.id, name: sandboxConfigs.name })
    .from(sandboxConfigs)
    .where(eq(sandboxConfigs.backend, 'docker'))
    .orderBy(asc(sandboxConfigs.name));
  const installs = new Map((await listInstalls(deps.db, { skillKey: m.skillKey })).map((r) => [r.configId, r.state]));
  const configs = await Promise.all(
    rows.map(async (row): Promise<ConfigGatingOut> => {
      const base = { configId: row.id, configName: row.name, installState: installs.get(row.id) ?? null };
      try {
        const g = await gateSkillsInConfig(deps, row.id, [m]);
        const s = g.skills[0];
        return { ...base, image: g.image, eligible: s.eligible, reasons: s.reasons, missingBins: s.gating.missing.bins, error: null };
      } catch (e) {
        return { ...base, image: null, eligible: null, reasons: [], missingBins: [], error: e instanceof Error ? e.message : String(e) };
      }
    }),
  );
  return { skillId: skill.id, skillKey: m.skillKey, host: { eligible: skill.gating.eligible, reasons: skill.gating.reasons }, configs };
}
