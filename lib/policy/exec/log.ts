// Reading the exec log: one agent's rows or every agent's, newest first. A row decided "approval"
// carries the state its request reached (approved, rejected, expired, or still pending), read from
// the request itself, so a command that ran after an approval reads as approved, not as waiting.
import { and, desc, eq, lt } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { execApprovals, execLog } from '@/db/schema';

export interface ExecLogQuery {
  /** One agent's rows; absent: every agent's. */
  agentId?: string;
  limit: number;
  decision?: 'allow' | 'deny' | 'approval';
  /** Rows older than this time (paging). */
  before?: string;
}

export async function readExecLog(db: AppDb, q: ExecLogQuery) {
  const where = and(
    q.agentId ? eq(execLog.agentId, q.agentId) : undefined,
    q.decision ? eq(execLog.decision, q.decision) : undefined,
    q.before ? lt(execLog.at, new Date(q.before)) : undefined,
  );
  const rows = await db
    .select({ r: execLog, approvalState: execApprovals.state })
    .from(execLog)
    .leftJoin(execApprovals, eq(execApprovals.id, execLog.approvalId))
    .where(where)
    .orderBy(desc(execLog.at))
    .limit(q.limit);
  return {
    items: rows.map(({ r, approvalState }) => ({
      id: r.id,
      agentId: r.agentId,
      sessionId: r.sessionId,
      profile: r.profile,
      command: r.command,
      decision: r.decision,
      rule: r.rule,
      segment: r.segment,
      reason: r.reason,
      outcome: r.outcome,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      stdoutTruncated: r.stdoutTruncated,
      stderrTruncated: r.stderrTruncated,
      approvalId: r.approvalId,
      approvalState: approvalState ?? null,
      at: r.at.toISOString(),
      by: r.by,
    })),
  };
}

export const agentExecLog = (db: AppDb, agentId: string, q: Omit<ExecLogQuery, 'agentId'>) => readExecLog(db, { ...q, agentId });
