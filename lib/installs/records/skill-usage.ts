// Install records read by skill or config: the lists, the catalog's delete guard, and the
// "updatable" flag the catalog sets when it registers a newer version.
import { and, asc, eq, ne, type SQL } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs, sandboxSkillInstalls } from '@/db/schema';
import { AppError } from '../../core/errors';

export type InstallRecord = typeof sandboxSkillInstalls.$inferSelect;

export interface SkillInstallUse {
  installId: string;
  configId: string;
  configName: string;
  state: InstallRecord['state'];
  version: string;
}

/** Every config that has a record of the skill, whatever its state. */
export async function installsOfSkill(db: AppDb, skillKey: string): Promise<SkillInstallUse[]> {
  const t = sandboxSkillInstalls;
  return db
    .select({ installId: t.id, configId: t.configId, configName: sandboxConfigs.name, state: t.state, version: t.version })
    .from(t)
    .innerJoin(sandboxConfigs, eq(sandboxConfigs.id, t.configId))
    .where(eq(t.skillKey, skillKey))
    .orderBy(asc(sandboxConfigs.name));
}

/** The catalog's delete guard: 409 naming the configs while any install references the skill. */
export async function assertNoInstalls(db: AppDb, skillKey: string): Promise<void> {
  const uses = await installsOfSkill(db, skillKey);
  if (uses.length === 0) return;
  const names = uses.map((u) => u.configName);
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');
  throw new AppError(
    'conflict',
    `"${skillKey}" is installed in ${uses.length === 1 ? 'a sandbox config' : `${uses.length} sandbox configs`} (${shown}); remove it from ${uses.length === 1 ? 'it' : 'them'} before deleting it from the catalog.`,
    { details: { skillKey, installs: uses }, hint: 'Removing a skill from a sandbox config rebuilds that config’s image without it.' },
  );
}

/**
 * After the catalog registers `newestHash` for a skill: records of any other hash become
 * updatable, records already at it stop being so. Returns how many records are updatable.
 */
export async function markUpdatable(db: AppDb, skillKey: string, newestHash: string): Promise<number> {
  const t = sandboxSkillInstalls;
  return db.transaction(async (tx) => {
    await tx
      .update(t)
      .set({ updatable: false })
      .where(and(eq(t.skillKey, skillKey), eq(t.contentHash, newestHash), eq(t.updatable, true)));
    const rows = await tx
      .update(t)
      .set({ updatable: true })
      .where(and(eq(t.skillKey, skillKey), ne(t.contentHash, newestHash)))
      .returning({ id: t.id });
    return rows.length;
  });
}

export async function listInstalls(db: AppDb, filter: { configId?: string; skillKey?: string } = {}): Promise<InstallRecord[]> {
  const t = sandboxSkillInstalls;
  const where: SQL[] = [];
  if (filter.configId !== undefined) where.push(eq(t.configId, filter.configId));
  if (filter.skillKey !== undefined) where.push(eq(t.skillKey, filter.skillKey));
  return db
    .select()
    .from(t)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(t.skillKey), asc(t.configId));
}

export async function getInstall(db: AppDb, id: string): Promise<InstallRecord | null> {
  const [row] = await db.select().from(sandboxSkillInstalls).where(eq(sandboxSkillInstalls.id, id));
  return row ?? null;
}
