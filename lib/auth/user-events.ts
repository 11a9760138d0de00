import { sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';

/** Carries the id of a user whose role, status, password or sessions changed, to every replica. */
export const USERS_CHANNEL = 'skilldock_users';

type LocalListener = (channel: string, id: string) => void;
// On globalThis: server.ts and Next's route bundles each load their own copy of this module, and a
// change made through either must reach the caches the services (built by server.ts) hold.
// process-wide: a bus of this process on globalThis, so the copies of this module in server.ts and the route bundles hear each other
const local: Set<LocalListener> = ((globalThis as Record<symbol, unknown>)[Symbol.for('skilldock.localChanges')] ??=
  new Set<LocalListener>()) as Set<LocalListener>;

/**
 * Hears every change this process announces, as it is announced (inside the transaction, before
 * the commit): the caches of this process drop what it concerns and keep nothing of it until the
 * committed notice arrives, so a change is in force here once the call that made it returns.
 */
export function onLocalChange(f: LocalListener): () => void {
  local.add(f);
  return () => local.delete(f);
}

async function announce(db: Pick<AppDb, 'execute'>, channel: string, id: string): Promise<void> {
  for (const f of local) f(channel, id);
  await db.execute(sql`select pg_notify(${channel}, ${id})`);
}

/** Sent inside the changing transaction, so listeners hear of it only once it is committed. */
export async function notifyUserChanged(db: Pick<AppDb, 'execute'>, id: string): Promise<void> {
  await announce(db, USERS_CHANNEL, id);
}

/** Carries the id of a revoked API token to every replica. */
export const TOKENS_CHANNEL = 'skilldock_tokens';

/** Sent inside the revoking transaction, so listeners hear of it only once it is committed. */
export async function notifyTokenChanged(db: Pick<AppDb, 'execute'>, id: string): Promise<void> {
  await announce(db, TOKENS_CHANNEL, id);
}
