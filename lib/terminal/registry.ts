// Every replica's open terminal sessions in one table: the admin list and close are cluster-wide, and
// a re-attach landing on a replica that does not hold the shell finds the holder's address here.
// Rows of a dead replica (no heartbeat) are pruned; a close of a session held elsewhere reaches its
// holder as a NOTIFY it listens for.
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { replicas, terminalSessions } from '@/db/schema';
import { replicaAlive } from '../cluster/replica';
import { logger } from '../core/logger';
import { DEFAULT_COLS, DEFAULT_ROWS } from './frames';

/** Why another replica asks the holder to end a session. */
export type CloseReason = 'closed' | 'sandbox_gone';

/** One open session as the admin list shows it. */
export interface SessionView {
  id: string;
  user: string;
  userId: string;
  sandboxId: string;
  startedAt: string;
  lastInputAt: string;
  idleSeconds: number;
  bytesIn: number;
  bytesOut: number;
  attached: boolean;
  cols: number;
  rows: number;
}

export const CLOSE_CHANNEL = 'skilldock_terminal_close';

export interface SessionInfo {
  user: string;
  cols: number;
  rows: number;
}

export interface SessionRow {
  id: string;
  replica: string;
  userId: string;
  sandboxId: string;
  info: SessionInfo;
  startedAt: Date;
  /** The holder's internal base URL (null while it has not registered one). */
  address: string | null;
}

/** How long a close asked of another replica waits for it to take effect (its holder may be dying). */
const CLOSE_WAIT_MS = 5000;

export class SessionRegistry {
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    readonly replicaId: string,
  ) {}

  async add(s: { id: string; userId: string; sandboxId: string; info: SessionInfo }): Promise<void> {
    await this.database.db
      .insert(terminalSessions)
      .values({ ...s, replica: this.replicaId })
      .onConflictDoNothing();
  }

  async remove(id: string): Promise<void> {
    await this.database.db.delete(terminalSessions).where(and(eq(terminalSessions.id, id), eq(terminalSessions.replica, this.replicaId)));
  }

  /** One session of a live replica, with its holder's address. */
  async find(id: string): Promise<SessionRow | null> {
    const [row] = await this.select().where(and(eq(terminalSessions.id, id), replicaAlive()));
    return row ?? null;
  }

  /** Every live replica's sessions; rows of dead replicas are pruned first. */
  async list(): Promise<SessionRow[]> {
    await this.prune();
    return this.select().where(replicaAlive());
  }

  /** Drops the rows of replicas with no recent heartbeat: their shells died with them. */
  async prune(): Promise<number> {
    const alive = this.database.db.select({ id: replicas.id }).from(replicas).where(replicaAlive());
    const gone = await this.database.db.delete(terminalSessions).where(notInArray(terminalSessions.replica, alive)).returning({ id: terminalSessions.id });
    return gone.length;
  }

  /** A live session of this user held by another replica. */
  async heldElsewhere(id: string, userId: string): Promise<SessionRow | null> {
    const row = await this.find(id);
    return row && row.replica !== this.replicaId && row.userId === userId ? row : null;
  }

  /** Sessions in a sandbox held by other live replicas. */
  async othersInSandbox(sandboxId: string): Promise<SessionRow[]> {
    const rows = await this.select().where(and(eq(terminalSessions.sandboxId, sandboxId), replicaAlive()));
    return rows.filter((r) => r.replica !== this.replicaId);
  }

  /**
   * Asks the holder to end a session it holds, then waits (bounded) until the holder has dropped its
   * row, so a list read after an admin's close no longer shows it.
   */
  async requestClose(replica: string, id: string, reason: CloseReason = 'closed', waitMs = CLOSE_WAIT_MS): Promise<void> {
    await this.database.notify(CLOSE_CHANNEL, JSON.stringify({ replica, id, reason }));
    for (const deadline = Date.now() + waitMs; Date.now() < deadline; ) {
      const [row] = await this.database.db.select({ id: terminalSessions.id }).from(terminalSessions).where(eq(terminalSessions.id, id));
      if (!row) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Closes asked of this replica reach `onClose`. */
  async listen(onClose: (id: string, reason: CloseReason) => void): Promise<void> {
    this.unlisten = await this.database.listen(CLOSE_CHANNEL, (payload) => {
      try {
        const m = JSON.parse(payload) as { replica?: unknown; id?: unknown; reason?: unknown };
        if (m.replica === this.replicaId && typeof m.id === 'string') onClose(m.id, m.reason === 'sandbox_gone' ? 'sandbox_gone' : 'closed');
      } catch (e) {
        logger.warn('bad terminal close notice', { error: String(e) });
      }
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = null;
  }

  private select() {
    return this.database.db
      .select({
        id: terminalSessions.id,
        replica: terminalSessions.replica,
        userId: terminalSessions.userId,
        sandboxId: terminalSessions.sandboxId,
        info: sql<SessionInfo>`${terminalSessions.info}`,
        startedAt: terminalSessions.startedAt,
        address: replicas.address,
      })
      .from(terminalSessions)
      .innerJoin(replicas, eq(replicas.id, terminalSessions.replica))
      .$dynamic();
  }
}

/** Another replica's session in the admin list: what its row carries (live figures stay in the holder's memory). */
export function remoteView(r: SessionRow, now: number): SessionView {
  return {
    id: r.id,
    user: r.info.user ?? r.userId,
    userId: r.userId,
    sandboxId: r.sandboxId,
    startedAt: r.startedAt.toISOString(),
    lastInputAt: r.startedAt.toISOString(),
    idleSeconds: Math.max(0, Math.floor((now - r.startedAt.getTime()) / 1000)),
    bytesIn: 0,
    bytesOut: 0,
    attached: true,
    cols: r.info.cols ?? DEFAULT_COLS,
    rows: r.info.rows ?? DEFAULT_ROWS,
  };
}
