// The installation id: one per database, shared by all its replicas. Everything Skilldock creates
// on a shared Docker engine carries it, so two installations never touch each other's objects.
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { settings } from '@/db/schema';
import { randomToken } from '../core/ids';

const KEY = 'installation';

/** The label every Docker object (container, network) of an installation carries, with its id. */
export const LABEL_INSTALLATION = 'io.skilldock.installation';

/** Reads the id, creating it on first boot; replicas booting together all read the one that won. */
export async function installationId(db: AppDb): Promise<string> {
  const candidate = randomToken(9)
    .replace(/[^A-Za-z0-9]/g, 'x')
    .toLowerCase();
  await db
    .insert(settings)
    .values({ key: KEY, value: { id: candidate }, updatedBy: null })
    .onConflictDoNothing({ target: settings.key });
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY));
  const id = (row?.value as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string' || !/^[a-z0-9]{12}$/.test(id)) throw new Error(`settings row "${KEY}" holds no valid installation id`);
  return id;
}
