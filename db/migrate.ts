import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './client';

export const MIGRATIONS_DIR = path.resolve(process.cwd(), 'drizzle');
/** Advisory lock key: replicas booting together migrate one at a time. */
const MIGRATION_LOCK = 7_340_001;

/** Applies the committed SQL migrations. Throws with a message naming the failure; boot must stop on it. */
export async function migrateDatabase(database: Database, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  if (!fs.existsSync(path.join(migrationsFolder, 'meta', '_journal.json'))) {
    throw new Error(`Database migration failed: no migrations found in ${migrationsFolder}.`);
  }
  try {
    await database.withLock(MIGRATION_LOCK, async () => {
      if (database.kind === 'pglite') {
        const { migrate } = await import('drizzle-orm/pglite/migrator');
        await migrate(database.db as never, { migrationsFolder });
      } else {
        const { migrate } = await import('drizzle-orm/postgres-js/migrator');
        await migrate(database.db as never, { migrationsFolder });
      }
    });
  } catch (e) {
    const cause = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    throw new Error(`Database migration failed: ${cause}. Boot stopped; each migration runs in a transaction, so the failed one left nothing behind.`, {
      cause: e,
    });
  }
}
