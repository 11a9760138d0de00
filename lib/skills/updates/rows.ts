import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { skillUpdateChecks } from '@/db/schema';

export type CheckRow = typeof skillUpdateChecks.$inferSelect;

export async function readCheckRow(db: AppDb, slug: string): Promise<CheckRow | undefined> {
  const [row] = await db.select().from(skillUpdateChecks).where(eq(skillUpdateChecks.slug, slug));
  return row;
}

export async function saveRow(db: AppDb, slug: string, values: Partial<CheckRow> & Pick<CheckRow, 'kind'>): Promise<void> {
  await db
    .insert(skillUpdateChecks)
    .values({ slug, ...values })
    .onConflictDoUpdate({ target: skillUpdateChecks.slug, set: values });
}
