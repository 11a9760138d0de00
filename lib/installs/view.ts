// Install records and snapshot images as the API shows them: with the config's name, the version
// agents get now, and the catalog's current version when it differs from the record's.
import { inArray } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import { servedVersion } from './records/states';
import type { CatalogSkill, InstallRecord, SandboxImage } from './records/store';
import type { InstallOut } from './schema';

export type CatalogLookup = (key: string) => Promise<CatalogSkill | null>;

async function configNames(db: AppDb, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: sandboxConfigs.id, name: sandboxConfigs.name }).from(sandboxConfigs).where(inArray(sandboxConfigs.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export function installView(r: InstallRecord, configName: string, catalog: CatalogSkill | null): InstallOut {
  return {
    id: r.id,
    configId: r.configId,
    configName,
    skillKey: r.skillKey,
    skillName: r.skillName,
    version: r.version,
    contentHash: r.contentHash,
    state: r.state,
    stage: r.stage,
    percent: r.percent,
    jobId: r.jobId,
    notes: r.notes,
    error: r.error ? { code: r.error.code, message: r.error.message, stage: r.error.stage ?? null } : null,
    imageGeneration: r.imageGeneration,
    served: servedVersion(r),
    previousReady: r.previousReady,
    updatable: r.updatable,
    catalogVersion: catalog && catalog.contentHash !== r.contentHash ? catalog.version : null,
    createdBy: r.createdBy,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function installViews(db: AppDb, rows: InstallRecord[], catalog: CatalogLookup): Promise<InstallOut[]> {
  const names = await configNames(db, [...new Set(rows.map((r) => r.configId))]);
  const out: InstallOut[] = [];
  for (const r of rows) out.push(installView(r, names.get(r.configId) ?? r.configId, await catalog(r.skillKey)));
  return out;
}

export function imageView(i: SandboxImage) {
  return {
    id: i.id,
    generation: i.generation,
    parentGeneration: i.parentGeneration,
    state: i.state,
    ref: i.plannedRef,
    imageId: i.imageId,
    sizeBytes: i.sizeBytes,
    layers: i.layers,
    skills: i.skills.map((s) => ({ skillKey: s.skillKey, version: s.version, contentHash: s.contentHash })),
    createdAt: i.createdAt.toISOString(),
    supersededAt: i.supersededAt?.toISOString() ?? null,
  };
}
