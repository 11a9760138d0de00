import { and, asc, count, eq, isNull, ne, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { apiTokens, users } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import { AppError, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { type Actor, systemActor } from './actor';
import { hashPassword, verifyPassword } from './password';
import type { CreateUserInput, SetupInput, UpdateUserInput } from './schemas';
import { notifyUserChanged } from './user-events';

export type UserRow = typeof users.$inferSelect;
export type PublicUser = Omit<UserRow, 'passwordHash' | 'sessionsValidAfter'>;

export function publicUser(u: UserRow): PublicUser {
  const { passwordHash: _h, sessionsValidAfter: _s, ...rest } = u;
  return rest;
}

export async function userCount(db: AppDb): Promise<number> {
  const [r] = await db.select({ n: count() }).from(users);
  return Number(r.n);
}

const setupDone = () => new AppError('setup_done', 'Setup is already complete. Sign in instead.');

/** Creates the first owner. Refused once any user exists, under a lock so two setups cannot race. */
export async function setupFirstOwner(db: AppDb, input: SetupInput, actor: Actor = systemActor): Promise<PublicUser> {
  // Refused before hashing: a finished instance must not spend CPU on setup attempts.
  if ((await userCount(db)) > 0) throw setupDone();
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7340002)`);
    const [r] = await tx.select({ n: count() }).from(users);
    if (Number(r.n) > 0) throw setupDone();
    const [u] = await tx.insert(users).values({ id: newId(), email: input.email, name: input.name, passwordHash, role: 'owner' }).returning();
    await recordAudit(
      tx,
      { ...actor, label: actor.kind === 'system' ? `setup (${u.email})` : actor.label },
      {
        action: 'user.setup',
        targetType: 'user',
        targetId: u.id,
        after: publicUser(u),
      },
    );
    return publicUser(u);
  });
}

export async function listUsers(db: AppDb): Promise<PublicUser[]> {
  const rows = await db.select().from(users).orderBy(asc(users.createdAt));
  return rows.map(publicUser);
}

export async function getUser(db: AppDb, id: string): Promise<UserRow | undefined> {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u;
}

export async function createUser(db: AppDb, actor: Actor, input: CreateUserInput): Promise<PublicUser> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, input.email));
    if (existing)
      throw new AppError('conflict', `A user with the email ${input.email} already exists.`, { issues: [{ path: 'email', message: 'Already in use' }] });
    const [u] = await tx.insert(users).values({ id: newId(), email: input.email, name: input.name, passwordHash, role: input.role }).returning();
    await recordAudit(tx, actor, { action: 'user.create', targetType: 'user', targetId: u.id, after: publicUser(u) });
    return publicUser(u);
  });
}

async function assertAnotherActiveOwner(tx: AppDb, excludingId: string) {
  const [r] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'owner'), eq(users.disabled, false), ne(users.id, excludingId)));
  if (Number(r.n) === 0) throw new AppError('invalid_state', 'This is the last active owner; make another user owner first.');
}

export async function updateUser(db: AppDb, actor: Actor, id: string, input: UpdateUserInput): Promise<PublicUser> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7340003)`);
    const [before] = await tx.select().from(users).where(eq(users.id, id));
    if (!before) throw notFound('User');
    const demotesOwner = before.role === 'owner' && ((input.role && input.role !== 'owner') || input.disabled === true);
    if (demotesOwner) await assertAnotherActiveOwner(tx as unknown as AppDb, id);
    const revokeSessions = input.disabled === true || (input.role !== undefined && input.role !== before.role);
    const [after] = await tx
      .update(users)
      .set({ ...input, updatedAt: new Date(), ...(revokeSessions ? { sessionsValidAfter: new Date() } : {}) })
      .where(eq(users.id, id))
      .returning();
    await notifyUserChanged(tx, id);
    await recordAudit(tx, actor, { action: 'user.update', targetType: 'user', targetId: id, before: publicUser(before), after: publicUser(after) });
    return publicUser(after);
  });
}

export async function resetPassword(db: AppDb, actor: Actor, id: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [u] = await tx
      .update(users)
      .set({ passwordHash, sessionsValidAfter: new Date(), updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning({ id: users.id });
    if (!u) throw notFound('User');
    await notifyUserChanged(tx, id);
    // A reset is what an operator does when a password leaked: the user's API tokens go with it.
    const revoked = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.userId, id), isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id });
    await recordAudit(tx, actor, {
      action: 'user.reset_password',
      targetType: 'user',
      targetId: id,
      after: { password: 'changed', apiAccessRevoked: revoked.length },
    });
  });
}

/**
 * A user changes their own password, proving the current one. Every session of the user ends (the
 * console signs the caller in again); API tokens stay valid, as nothing says they leaked.
 */
export async function changeOwnPassword(db: AppDb, actor: Actor, currentPassword: string, newPassword: string): Promise<void> {
  if (actor.kind !== 'user' || !actor.userId) throw new AppError('forbidden', 'Change your password from a signed-in session, not with an API token.');
  const u = await getUser(db, actor.userId);
  if (!u) throw notFound('User');
  if (!(await verifyPassword(currentPassword, u.passwordHash))) {
    throw new AppError('validation', 'The current password is wrong.', { issues: [{ path: 'currentPassword', message: 'Wrong password' }] });
  }
  if (currentPassword === newPassword) {
    throw new AppError('validation', 'Choose a password different from the current one.', {
      issues: [{ path: 'newPassword', message: 'Same as the current password' }],
    });
  }
  const passwordHash = await hashPassword(newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, sessionsValidAfter: new Date(), updatedAt: new Date() }).where(eq(users.id, u.id));
    await notifyUserChanged(tx, u.id);
    await recordAudit(tx, actor, { action: 'user.change_password', targetType: 'user', targetId: u.id, after: { password: 'changed', sessionsEnded: true } });
  });
}
