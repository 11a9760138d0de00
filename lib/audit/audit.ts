import { and, desc, gte, ilike, lt, lte, or, type SQL } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { auditLog } from '@/db/schema';
import type { AuditQuery } from './query';

export const SECRET_KEY = /pass(word)?|secret|token|api[-_]?key|private[-_]?key|credential|hash|authorization|cookie/i;

/** Replaces the value of every secret-looking key with "***", at any depth. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) && v !== null && v !== undefined && typeof v !== 'boolean' ? '***' : maskSecrets(v),
      ]),
    );
  }
  return value;
}

export interface AuditEntry {
  action: string;
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
}

type Writer = Pick<AppDb, 'insert'>;

/** Records one write. Call it with the same transaction as the write, so both land or neither. */
/** Who acted, as an audit record keeps it (the auth domain's Actor is one). */
export interface AuditActor {
  userId: string | null;
  tokenId: string | null;
  label: string;
  ip: string | null;
  userAgent: string | null;
}

export async function recordAudit(db: Writer, actor: AuditActor, e: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: actor.userId,
    actorTokenId: actor.tokenId,
    actorLabel: actor.label,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId ?? null,
    before: e.before === undefined ? null : maskSecrets(e.before),
    after: e.after === undefined ? null : maskSecrets(e.after),
    ip: actor.ip,
    userAgent: actor.userAgent?.slice(0, 300) ?? null,
  });
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

export async function listAudit(db: AppDb, q: AuditQuery) {
  const where: SQL[] = [];
  if (q.actor) where.push(ilike(auditLog.actorLabel, like(q.actor)));
  if (q.action) where.push(ilike(auditLog.action, like(q.action)));
  if (q.target) {
    const t = or(ilike(auditLog.targetType, like(q.target)), ilike(auditLog.targetId, like(q.target)));
    if (t) where.push(t);
  }
  if (q.from) where.push(gte(auditLog.at, new Date(q.from)));
  if (q.to) where.push(lte(auditLog.at, new Date(q.to)));
  if (q.before) where.push(lt(auditLog.id, q.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(q.limit + 1);
  const items = rows.slice(0, q.limit);
  return { items, nextBefore: rows.length > q.limit ? items[items.length - 1].id : null };
}

export async function distinctAuditActions(db: AppDb): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action);
  return rows.map((r) => r.action);
}
