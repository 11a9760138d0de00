// Whether the one who opened a terminal may still hold it: the periodic re-check that cuts off a
// disabled or demoted user, a user signed out everywhere, and a revoked or expired API token.
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { apiTokens } from '@/db/schema';
import type { Actor } from '../auth/actor';
import { isPermission, type Permission, ROLE_PERMISSIONS } from '../auth/permissions';
import type { SessionUser } from '../auth/user-cache';

export interface AccessDeps {
  db: AppDb;
  /** The user record as the request path sees it (cached, dropped on change on any replica). */
  user(id: string): Promise<SessionUser | null>;
  now?: () => number;
}

/** False once the actor may no longer hold `permission`; `since` is when the terminal opened. */
export async function stillAllowed(deps: AccessDeps, actor: Actor, permission: Permission, since: number): Promise<boolean> {
  if (!actor.userId) return false;
  const user = await deps.user(actor.userId);
  if (!user || user.disabled || !ROLE_PERMISSIONS[user.role].has(permission)) return false;
  if (actor.kind === 'token') {
    if (!actor.tokenId) return false;
    const [t] = await deps.db.select().from(apiTokens).where(eq(apiTokens.id, actor.tokenId));
    const now = deps.now?.() ?? Date.now();
    if (!t || t.revokedAt || (t.expiresAt && t.expiresAt.getTime() <= now)) return false;
    return t.permissions.some((p) => isPermission(p) && p === permission);
  }
  // "Sign out everywhere" and a password reset move this mark: sessions from before it are over.
  return user.sessionsValidAfter.getTime() <= since;
}
