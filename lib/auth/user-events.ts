import { sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';

/** Carries the id of a user whose role, status, password or sessions changed, to every replica. */
export const USERS_CHANNEL = 'skilldock_users';

/** Sent inside the changing transaction, so listeners hear of it only once it is committed. */
export async function notifyUserChanged(db: Pick<AppDb, 'execute'>, id: string): Promise<void> {
  await db.execute(sql`select pg_notify(${USERS_CHANNEL}, ${id})`);
}
