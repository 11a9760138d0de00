// Approval requests for commands the policy sends to an admin. A request is pending until an admin
// approves or rejects it, or until it expires (a background sweep ends it, its deadline is checked
// on every read and by the decide update itself, so a late decision never lands). An approved request
// runs once, and only as approved: the same command, stdin, cwd, timeout and script contents.
// A waiting exec is woken in-process at once and, for a decision made by another replica, by
// polling the row; the wait is bounded by the request's deadline.
import { EventEmitter } from 'node:events';
import { and, count, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { execApprovals } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import { type Actor, systemActor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import { newId } from '../../core/ids';
import { logger } from '../../core/logger';
import { type ApprovalBinding, bindingChanges, CHANGE_HINTS, sortedScripts } from './binding';

export { type ApprovalBinding, type ScriptDigest, stdinDigest } from './binding';

import type { Evaluation } from '../types';

export type ApprovalRow = typeof execApprovals.$inferSelect;
export type ApprovalState = ApprovalRow['state'];

export interface ApprovalDeps {
  db: AppDb;
  now?: () => Date;
  /** Wakes this service's waiters when a request is decided; without it they notice at their next poll. */
  decisions?: ApprovalDecisions;
}

/** One service's waiters on approval requests, woken by the request's id when it is decided. */
export class ApprovalDecisions extends EventEmitter {
  constructor() {
    super();
    this.setMaxListeners(0);
  }
}

const nowOf = (deps: ApprovalDeps) => deps.now?.() ?? new Date();

/** Pending requests one agent may have at a time; the next is refused with 429. */
export const MAX_PENDING_PER_AGENT = 20;
const PENDING_LOCK = 7340101;

export function approvalView(r: ApprovalRow) {
  return {
    id: r.id,
    agentId: r.agentId,
    command: r.command,
    segment: r.segment,
    rule: r.rule,
    reason: r.reason,
    state: r.state,
    requestedAt: r.requestedAt.toISOString(),
    requestedBy: r.requestedBy,
    expiresAt: r.expiresAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decidedBy: r.decidedBy,
    note: r.note,
    usedAt: r.usedAt?.toISOString() ?? null,
    stdinSha256: r.stdinSha256,
    cwd: r.cwd,
    skill: r.skill,
    timeoutMs: r.timeoutMs,
    scripts: r.scripts ?? null,
  };
}
export type ApprovalView = ReturnType<typeof approvalView>;

export async function requestApproval(
  deps: ApprovalDeps,
  actor: Actor,
  input: { agentId: string; command: string; evaluation: Evaluation; timeoutSeconds: number; binding?: ApprovalBinding },
): Promise<ApprovalRow> {
  const now = nowOf(deps);
  const b = input.binding;
  return deps.db.transaction(async (tx) => {
    // One agent's requests are counted and added one at a time, so the cap holds across replicas.
    await tx.execute(sql`select pg_advisory_xact_lock(${PENDING_LOCK}, hashtext(${input.agentId}))`);
    const [{ n }] = await tx
      .select({ n: count() })
      .from(execApprovals)
      .where(and(eq(execApprovals.agentId, input.agentId), eq(execApprovals.state, 'pending'), gt(execApprovals.expiresAt, now)));
    if (n >= MAX_PENDING_PER_AGENT)
      throw new AppError(
        'rate_limited',
        `Agent "${input.agentId}" already has ${n} approval requests waiting for a decision (at most ${MAX_PENDING_PER_AGENT}); wait until some are approved, rejected or expired.`,
        { details: { pending: n, limit: MAX_PENDING_PER_AGENT, retryAfterSeconds: 30 } },
      );
    const [row] = await tx
      .insert(execApprovals)
      .values({
        id: newId(),
        agentId: input.agentId,
        command: input.command,
        segment: input.evaluation.segment,
        rule: input.evaluation.rule,
        reason: input.evaluation.reason,
        requestedAt: now,
        requestedBy: actor.label,
        expiresAt: new Date(now.getTime() + input.timeoutSeconds * 1000),
        stdinSha256: b?.stdinSha256 ?? null,
        cwd: b?.cwd ?? null,
        skill: b?.skill ?? null,
        timeoutMs: b?.timeoutMs ?? null,
        scripts: sortedScripts(b?.scripts),
      })
      .returning();
    await recordAudit(tx, actor, {
      action: 'policy.approval.request',
      targetType: 'exec_approval',
      targetId: row.id,
      after: {
        agentId: row.agentId,
        command: row.command.slice(0, 2000),
        rule: row.rule,
        expiresAt: row.expiresAt.toISOString(),
        stdinSha256: row.stdinSha256,
        cwd: row.cwd,
        skill: row.skill,
        timeoutMs: row.timeoutMs,
        scripts: row.scripts,
      },
    });
    return row;
  });
}

/** Ends every pending request past its deadline (audited as the system); returns how many. */
export async function expireDue(deps: ApprovalDeps): Promise<number> {
  const now = nowOf(deps);
  return deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(execApprovals)
      .set({ state: 'expired', decidedAt: now, decidedBy: 'system' })
      .where(and(eq(execApprovals.state, 'pending'), lte(execApprovals.expiresAt, now)))
      .returning();
    for (const r of rows) {
      await recordAudit(tx, systemActor, {
        action: 'policy.approval.expire',
        targetType: 'exec_approval',
        targetId: r.id,
        before: { state: 'pending' },
        after: { state: 'expired' },
      });
      deps.decisions?.emit(r.id, r);
    }
    return rows.length;
  });
}

export const APPROVAL_SWEEP_MS = 15_000;

/** Expires due requests in the background (so a request ends on time with no one reading); returns the stop function. */
export function startApprovalExpiry(deps: ApprovalDeps, everyMs = APPROVAL_SWEEP_MS): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    expireDue(deps)
      .then((n) => n && logger.info('approval requests expired', { count: n }))
      .catch((e) => logger.warn('approval expiry sweep failed', { error: String(e) }))
      .finally(() => (running = false));
  };
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  sweep();
  return () => clearInterval(timer);
}

export async function listApprovals(deps: ApprovalDeps, q: { state?: ApprovalState; agentId?: string; limit: number }): Promise<{ items: ApprovalView[] }> {
  await expireDue(deps);
  const where = and(q.state ? eq(execApprovals.state, q.state) : undefined, q.agentId ? eq(execApprovals.agentId, q.agentId) : undefined);
  const rows = await deps.db.select().from(execApprovals).where(where).orderBy(desc(execApprovals.requestedAt)).limit(q.limit);
  return { items: rows.map(approvalView) };
}

export async function getApproval(deps: ApprovalDeps, id: string, agentId?: string): Promise<ApprovalView> {
  await expireDue(deps);
  const [row] = await deps.db.select().from(execApprovals).where(eq(execApprovals.id, id));
  if (!row || (agentId && row.agentId !== agentId)) throw new AppError('not_found', 'No such approval request.');
  return approvalView(row);
}

export async function decideApproval(deps: ApprovalDeps, actor: Actor, id: string, to: 'approved' | 'rejected', note?: string): Promise<ApprovalView> {
  await expireDue(deps);
  const now = nowOf(deps);
  const row = await deps.db.transaction(async (tx) => {
    const [r] = await tx
      .update(execApprovals)
      .set({ state: to, decidedAt: now, decidedBy: actor.label, note: note ?? null })
      .where(and(eq(execApprovals.id, id), eq(execApprovals.state, 'pending'), gt(execApprovals.expiresAt, now)))
      .returning();
    if (!r) {
      const [cur] = await tx.select().from(execApprovals).where(eq(execApprovals.id, id));
      if (!cur) throw new AppError('not_found', 'No such approval request.');
      throw new AppError('invalid_state', `This request is already ${cur.state}; only a pending request can be ${to}.`, { details: { state: cur.state } });
    }
    await recordAudit(tx, actor, {
      action: to === 'approved' ? 'policy.approval.approve' : 'policy.approval.reject',
      targetType: 'exec_approval',
      targetId: id,
      before: { state: 'pending' },
      after: { state: to, note: note ?? null, agentId: r.agentId, command: r.command.slice(0, 2000) },
    });
    return r;
  });
  deps.decisions?.emit(id, row);
  return approvalView(row);
}

/**
 * Waits until the request leaves `pending` (an admin decided, or its deadline passed) and answers
 * its final row. Bounded: past the deadline it is expired here. `pollMs` covers decisions made by
 * another process.
 */
export async function waitForDecision(deps: ApprovalDeps, id: string, opts: { pollMs?: number; signal?: AbortSignal } = {}): Promise<ApprovalRow> {
  const pollMs = opts.pollMs ?? 500;
  for (;;) {
    const [row] = await deps.db.select().from(execApprovals).where(eq(execApprovals.id, id));
    if (!row) throw new AppError('not_found', 'No such approval request.');
    if (row.state !== 'pending') return row;
    const left = row.expiresAt.getTime() - nowOf(deps).getTime();
    if (left <= 0) {
      await expireDue(deps);
      continue;
    }
    if (opts.signal?.aborted) return row;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        deps.decisions?.off(id, done);
        opts.signal?.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, Math.min(pollMs, left + 5));
      deps.decisions?.on(id, done);
      opts.signal?.addEventListener('abort', done);
    });
  }
}

/**
 * Marks an approved request of this agent used; it runs once, and only as approved: a use whose
 * command, stdin, cwd, timeout or script contents differ is refused naming the fields that changed,
 * and the approval stays unused.
 */
export async function consumeApproval(
  deps: ApprovalDeps,
  actor: Actor,
  id: string,
  agentId: string,
  command: string,
  binding?: ApprovalBinding,
): Promise<ApprovalRow> {
  const now = nowOf(deps);
  return deps.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(execApprovals).where(eq(execApprovals.id, id)).for('update');
    if (!cur || cur.agentId !== agentId) throw new AppError('not_found', 'No such approval request for this agent.');
    if (cur.state !== 'approved') throw new AppError('invalid_state', `This request is ${cur.state}, not approved.`, { details: { state: cur.state } });
    if (cur.usedAt) throw new AppError('invalid_state', 'This approval was already used: an approved command runs once.', { details: { state: cur.state } });
    const changed = bindingChanges(cur, command, binding);
    if (changed.length)
      throw new AppError(
        'validation',
        `The request differs from the one approved: ${changed.join(', ')} changed. An approval runs only the request as approved.`,
        {
          issues: changed.map((f) => ({ path: f, message: CHANGE_HINTS[f] ?? 'Changed since approval.' })),
          details: { changed },
        },
      );
    const [r] = await tx
      .update(execApprovals)
      .set({ usedAt: now })
      .where(and(eq(execApprovals.id, id), eq(execApprovals.state, 'approved'), isNull(execApprovals.usedAt)))
      .returning();
    if (!r) throw new AppError('invalid_state', 'This approval was already used: an approved command runs once.');
    await recordAudit(tx, actor, { action: 'policy.approval.use', targetType: 'exec_approval', targetId: id, after: { usedAt: now.toISOString() } });
    return r;
  });
}
