import { and, asc, count, eq, or } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxEnvVars } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import { newId } from '../../core/ids';
import type { SecretBox } from '../../secrets/crypto';
import { type EnvEntry, type EnvRequest, envFor, type ResolvedEnv } from './resolve';
import { type EnvLevel, type EnvVarView, envNameProblem, MAX_ENV_PER_SCOPE, MAX_ENV_VALUE_BYTES } from './rules';

/** Where a var lives: the level and the scope columns it uses ('' for the others). */
export interface EnvScope {
  level: EnvLevel;
  configId?: string;
  userId?: string;
  skillKey?: string;
}

const cols = (s: EnvScope) => ({ level: s.level, configId: s.configId ?? '', userId: s.userId ?? '', skillKey: s.skillKey ?? '' });
export const envSealContext = (s: EnvScope, name: string) => {
  const c = cols(s);
  return `sandbox-env:${c.level}:${c.configId}:${c.userId}:${c.skillKey}:${name}`;
};
const scopeWhere = (s: EnvScope) => {
  const c = cols(s);
  return and(
    eq(sandboxEnvVars.level, c.level),
    eq(sandboxEnvVars.configId, c.configId),
    eq(sandboxEnvVars.userId, c.userId),
    eq(sandboxEnvVars.skillKey, c.skillKey),
  );
};

/** Whose var it is in the audit log: the level, the owner of a personal one, then the config or skill. */
const auditTarget = (c: ReturnType<typeof cols>, name: string) => [c.level, c.userId, c.configId || c.skillKey, name].filter(Boolean).join(':');

type Row = typeof sandboxEnvVars.$inferSelect;
const view = (r: Row): EnvVarView => ({
  level: r.level,
  name: r.name,
  configId: r.configId || null,
  skillKey: r.skillKey || null,
  configured: true,
  updatedAt: r.updatedAt.toISOString(),
  updatedBy: r.updatedBy,
});

/** The rules again on the server: the door's schema already ran, but the domain does not rely on it. */
function checkVar(name: string, value: string): void {
  const p = envNameProblem(name);
  if (p) throw new AppError('validation', p, { issues: [{ path: 'name', message: p }] });
  if (value.includes('\0')) throw new AppError('validation', 'A value cannot contain a NUL character.', { issues: [{ path: 'value', message: 'NUL' }] });
  if (Buffer.byteLength(value) > MAX_ENV_VALUE_BYTES)
    throw new AppError('payload_too_large', `A value is at most ${MAX_ENV_VALUE_BYTES / 1024} KiB.`, { issues: [{ path: 'value', message: 'too large' }] });
}

/** The rows of a new config's variables, checked and sealed (its creation inserts them with the config). */
export function configEnvRows(secrets: SecretBox, actor: Actor, configId: string, vars: readonly { name: string; value: string }[]) {
  if (vars.length > MAX_ENV_PER_SCOPE)
    throw new AppError('validation', `At most ${MAX_ENV_PER_SCOPE} variables per level and scope.`, {
      issues: [{ path: 'env', message: 'too many variables' }],
    });
  const seen = new Set<string>();
  return vars.map((v, i) => {
    checkVar(v.name, v.value);
    if (seen.has(v.name)) throw new AppError('validation', `${v.name} is named twice.`, { issues: [{ path: `env.${i}.name`, message: 'named twice' }] });
    seen.add(v.name);
    const scope: EnvScope = { level: 'config', configId };
    return { id: newId(), ...cols(scope), name: v.name, valueSealed: secrets.seal(v.value, envSealContext(scope, v.name)), updatedBy: actor.label };
  });
}

export async function listEnv(db: AppDb, scope: Partial<EnvScope> & { level?: EnvLevel }): Promise<EnvVarView[]> {
  const where = [];
  if (scope.level) where.push(eq(sandboxEnvVars.level, scope.level));
  if (scope.configId !== undefined) where.push(eq(sandboxEnvVars.configId, scope.configId));
  if (scope.userId !== undefined) where.push(eq(sandboxEnvVars.userId, scope.userId));
  if (scope.skillKey !== undefined) where.push(eq(sandboxEnvVars.skillKey, scope.skillKey));
  const rows = await db
    .select()
    .from(sandboxEnvVars)
    .where(and(...where))
    .orderBy(asc(sandboxEnvVars.level), asc(sandboxEnvVars.name));
  return rows.map(view);
}

/** Sets (or replaces) one var; the value is sealed and never returned. */
export async function setEnv(db: AppDb, secrets: SecretBox, actor: Actor, scope: EnvScope, name: string, value: string): Promise<EnvVarView> {
  checkVar(name, value);
  const c = cols(scope);
  return db.transaction(async (tx) => {
    const existing = await tx
      .select()
      .from(sandboxEnvVars)
      .where(and(scopeWhere(scope), eq(sandboxEnvVars.name, name)))
      .for('update');
    if (!existing.length) {
      const [{ n }] = await tx.select({ n: count() }).from(sandboxEnvVars).where(scopeWhere(scope));
      if (n >= MAX_ENV_PER_SCOPE)
        throw new AppError('validation', `At most ${MAX_ENV_PER_SCOPE} variables per level and scope; remove one first.`, {
          issues: [{ path: 'name', message: 'too many variables' }],
        });
    }
    const sealed = secrets.seal(value, envSealContext(scope, name));
    const now = new Date();
    const [row] = existing.length
      ? await tx
          .update(sandboxEnvVars)
          .set({ valueSealed: sealed, updatedAt: now, updatedBy: actor.label })
          .where(eq(sandboxEnvVars.id, existing[0].id))
          .returning()
      : await tx
          .insert(sandboxEnvVars)
          .values({ id: newId(), ...c, name, valueSealed: sealed, updatedAt: now, updatedBy: actor.label })
          .returning();
    await recordAudit(tx, actor, {
      action: 'sandbox.env.set',
      targetType: 'sandbox_env',
      targetId: auditTarget(c, name),
      before: existing.length ? { ...c, name, value: '***' } : null,
      after: { ...c, name, value: '***' },
    });
    return view(row);
  });
}

/** Removes one var; a lower level then applies again. Removing something unset is a 404. */
export async function unsetEnv(db: AppDb, actor: Actor, scope: EnvScope, name: string): Promise<{ removed: true }> {
  const c = cols(scope);
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(sandboxEnvVars)
      .where(and(scopeWhere(scope), eq(sandboxEnvVars.name, name)))
      .returning({ id: sandboxEnvVars.id });
    if (!gone.length) throw new AppError('not_found', `${name} is not set at this level.`);
    await recordAudit(tx, actor, {
      action: 'sandbox.env.unset',
      targetType: 'sandbox_env',
      targetId: auditTarget(c, name),
      before: { ...c, name, value: '***' },
    });
    return { removed: true as const };
  });
}

/** The env of one exec, read and opened from the database, then resolved by `envFor`. */
export async function loadEnvFor(db: AppDb, secrets: SecretBox, req: EnvRequest): Promise<ResolvedEnv> {
  const rows = await db
    .select()
    .from(sandboxEnvVars)
    .where(
      req.skill
        ? or(eq(sandboxEnvVars.configId, req.sandboxConfig.id), eq(sandboxEnvVars.skillKey, req.skill.key))
        : eq(sandboxEnvVars.configId, req.sandboxConfig.id),
    );
  const entries: EnvEntry[] = rows.map((r) => ({
    level: r.level,
    configId: r.configId,
    userId: r.userId,
    skillKey: r.skillKey,
    name: r.name,
    value: secrets.open(r.valueSealed, envSealContext(r, r.name)),
  }));
  return envFor(req, entries);
}
