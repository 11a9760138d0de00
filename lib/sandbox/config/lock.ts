import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';

/** How long an identity edit may hold its config; a crashed editor's lock lapses after this. */
export const LOCK_MS = 30_000;

const owner = (actor: Actor) => actor.userId ?? actor.tokenId ?? actor.label;

/**
 * Takes the config's edit lock, or answers 423 when another editor holds an unexpired one. One
 * conditional UPDATE, so two editors cannot both win.
 */
export async function lockConfig(db: AppDb, id: string, actor: Actor, ms = LOCK_MS): Promise<void> {
  const now = new Date();
  const won = await db
    .update(sandboxConfigs)
    .set({ lockedBy: owner(actor), lockedUntil: new Date(now.getTime() + ms) })
    .where(
      and(eq(sandboxConfigs.id, id), or(isNull(sandboxConfigs.lockedUntil), lt(sandboxConfigs.lockedUntil, now), eq(sandboxConfigs.lockedBy, owner(actor)))),
    )
    .returning({ id: sandboxConfigs.id });
  if (won.length) return;
  const [row] = await db.select({ until: sandboxConfigs.lockedUntil }).from(sandboxConfigs).where(eq(sandboxConfigs.id, id));
  if (!row) throw new AppError('not_found', 'This sandbox config was not found.');
  throw new AppError('locked', 'Someone else is changing how this config connects; try again in a few seconds.', {
    details: { lockedUntil: row.until?.toISOString() ?? null },
  });
}

/** Fails with 423 if another editor holds the lock, without taking it. */
export function assertUnlocked(row: { lockedBy: string | null; lockedUntil: Date | null }, actor: Actor, now = new Date()): void {
  if (row.lockedUntil && row.lockedUntil > now && row.lockedBy !== owner(actor))
    throw new AppError('locked', 'Someone else is changing how this config connects; try again in a few seconds.', {
      details: { lockedUntil: row.lockedUntil.toISOString() },
    });
}

export async function unlockConfig(db: AppDb, id: string, actor: Actor): Promise<void> {
  await db
    .update(sandboxConfigs)
    .set({ lockedBy: null, lockedUntil: null })
    .where(and(eq(sandboxConfigs.id, id), eq(sandboxConfigs.lockedBy, owner(actor))));
}
