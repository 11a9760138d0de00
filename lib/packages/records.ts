import { and, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { packageRecords } from '@/db/schema';
import { type InstalledPackage, type ManagerName, normalizePipName } from '../runtime';

/** The key a package is recorded, pinned and tracked under: pip names normalised (PEP 503), others as given. */
export const packageKey = (manager: string, name: string): string => (manager === 'pip' ? normalizePipName(name) : name);

export interface InstallRecord {
  installedAt: Date;
  installedBy: string;
  jobId: string | null;
}

/** Remembers who installed (or last updated) a pip or npm package; system packages keep this in their own record file. */
export async function recordInstalled(
  db: AppDb,
  p: { manager: ManagerName; name: string; version: string; actor: string; jobId?: string | null },
): Promise<void> {
  if (p.manager !== 'pip' && p.manager !== 'npm') return;
  const row = {
    manager: p.manager,
    name: packageKey(p.manager, p.name),
    version: p.version,
    installedAt: new Date(),
    installedBy: p.actor,
    jobId: p.jobId ?? null,
  };
  await db
    .insert(packageRecords)
    .values(row)
    .onConflictDoUpdate({ target: [packageRecords.manager, packageRecords.name], set: row });
}

export async function forgetInstalled(db: AppDb, manager: ManagerName, name: string): Promise<void> {
  await db.delete(packageRecords).where(and(eq(packageRecords.manager, manager), eq(packageRecords.name, packageKey(manager, name))));
}

/** Adds installed-at/by to managed pip and npm packages from the records. */
export async function withInstallRecords(db: AppDb, items: InstalledPackage[]): Promise<InstalledPackage[]> {
  if (!items.some((p) => p.managed && (p.manager === 'pip' || p.manager === 'npm'))) return items;
  const rows = await db.select().from(packageRecords);
  const byKey = new Map(rows.map((r) => [`${r.manager}\n${r.name}`, r]));
  return items.map((p) => {
    if (!p.managed || p.installedAt) return p;
    const r = byKey.get(`${p.manager}\n${packageKey(p.manager, p.name)}`);
    return r ? { ...p, installedAt: r.installedAt.toISOString(), installedBy: r.installedBy } : p;
  });
}
