import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { agents, apiTokens, users } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import { AppError, notFound } from '../core/errors';
import { newId, randomToken } from '../core/ids';
import type { Actor } from './actor';
import { AGENT_SCOPED_PERMISSIONS, isPermission, type Permission, ROLE_PERMISSIONS } from './permissions';
import type { CreateTokenInput } from './schemas';
import { notifyTokenChanged } from './user-events';
import type { UserRow } from './users';

export const TOKEN_PREFIX = 'sdk_';
const TOKEN_SHAPE = /^sdk_[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type TokenRow = typeof apiTokens.$inferSelect;
export type PublicToken = Omit<TokenRow, 'tokenHash'>;
const publicToken = ({ tokenHash: _h, ...t }: TokenRow): PublicToken => t;

/** Creates a token for the actor's own user. The secret is returned once and only its hash is kept. */
export async function createToken(db: AppDb, actor: Actor, input: CreateTokenInput): Promise<{ token: string; record: PublicToken }> {
  if (!actor.userId || actor.kind !== 'user') throw new AppError('forbidden', 'API tokens are created from a signed-in session, not by another token.');
  const beyond = input.permissions.filter((p) => !actor.permissions.has(p as Permission));
  if (beyond.length) {
    throw new AppError('forbidden', `A token cannot carry permissions its creator lacks: ${beyond.join(', ')}.`, {
      issues: [{ path: 'permissions', message: `Not yours to grant: ${beyond.join(', ')}` }],
    });
  }
  const agentIds = input.agentIds ? [...new Set(input.agentIds)].sort() : null;
  if (agentIds && input.permissions.some((p) => !(AGENT_SCOPED_PERMISSIONS as readonly string[]).includes(p)))
    throw new AppError(
      'validation',
      'A token scoped to agents reaches only their gateway routes: give it agents.read (and agents.exec to run commands) alone.',
      {
        issues: [{ path: 'permissions', message: 'Only agents.read and agents.exec go with agentIds' }],
      },
    );
  if (agentIds) await assertMayActAs(db, actor, agentIds);
  const token = TOKEN_PREFIX + randomToken(32);
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({
        id: newId(),
        userId: actor.userId!,
        name: input.name,
        prefix: token.slice(0, 10),
        tokenHash: hashToken(token),
        permissions: [...new Set(input.permissions)].sort(),
        agentIds,
        expiresAt,
      })
      .returning();
    await recordAudit(tx, actor, { action: 'token.create', targetType: 'api_token', targetId: row.id, after: publicToken(row) });
    return { token, record: publicToken(row) };
  });
}

/**
 * A token scoped to agents stands for those agents (it execs as them), so only a holder of
 * agents.write mints one, and only for agents that exist. Agents have no owner of their own: their
 * `createdBy` is a label, and creating one already needs agents.write.
 */
async function assertMayActAs(db: AppDb, actor: Actor, agentIds: string[]): Promise<void> {
  if (!actor.permissions.has('agents.write'))
    throw new AppError('forbidden', 'Only an admin (agents.write) can create a token scoped to agents: such a token acts as the agent.', {
      details: { permission: 'agents.write', requiredRole: 'admin' },
    });
  const found = new Set((await db.select({ id: agents.id }).from(agents).where(inArray(agents.id, agentIds))).map((r) => r.id));
  const unknown = agentIds.filter((id) => !found.has(id));
  if (unknown.length)
    throw new AppError('validation', `No such agent: ${unknown.join(', ')}.`, { issues: [{ path: 'agentIds', message: `Unknown: ${unknown.join(', ')}` }] });
}

export async function listTokens(db: AppDb, userId: string): Promise<PublicToken[]> {
  const rows = await db.select().from(apiTokens).where(eq(apiTokens.userId, userId)).orderBy(desc(apiTokens.createdAt));
  return rows.map(publicToken);
}

/** Revokes one of the actor's tokens (owners may revoke anyone's). Revoking twice is a no-op. */
export async function revokeToken(db: AppDb, actor: Actor, id: string): Promise<PublicToken> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(apiTokens).where(eq(apiTokens.id, id));
    if (!before || (before.userId !== actor.userId && !actor.permissions.has('users.manage'))) throw notFound('API token');
    if (before.revokedAt) return publicToken(before);
    const [after] = await tx.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, id)).returning();
    await notifyTokenChanged(tx, id);
    await recordAudit(tx, actor, { action: 'token.revoke', targetType: 'api_token', targetId: id, before: publicToken(before), after: publicToken(after) });
    return publicToken(after);
  });
}

/**
 * Resolves a bearer token to its token row and user, or throws UNAUTHENTICATED with the reason.
 * The effective permissions are the token's scopes that its user's current role still holds.
 */
export async function resolveToken(db: AppDb, token: string): Promise<{ token: TokenRow; user: UserRow; permissions: Set<Permission> }> {
  if (!TOKEN_SHAPE.test(token)) throw new AppError('unauthenticated', 'Malformed API token.');
  const [row] = await db
    .select({ t: apiTokens, u: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, hashToken(token)));
  if (!row) throw new AppError('unauthenticated', 'Unknown API token.');
  if (row.t.revokedAt) throw new AppError('unauthenticated', 'This API token was revoked.');
  if (row.t.expiresAt && row.t.expiresAt.getTime() <= Date.now()) throw new AppError('unauthenticated', 'This API token has expired.');
  if (row.u.disabled) throw new AppError('unauthenticated', 'The user who owns this API token is disabled.');
  const rolePerms = ROLE_PERMISSIONS[row.u.role];
  const permissions = new Set(row.t.permissions.filter((p): p is Permission => isPermission(p) && rolePerms.has(p)));
  // last_used_at is advisory: update at most once a minute per token to keep reads cheap.
  if (!row.t.lastUsedAt || Date.now() - row.t.lastUsedAt.getTime() > 60_000) {
    await db
      .update(apiTokens)
      .set({ lastUsedAt: new Date() })
      .where(and(eq(apiTokens.id, row.t.id), isNull(apiTokens.revokedAt)));
  }
  return { token: row.t, user: row.u, permissions };
}
