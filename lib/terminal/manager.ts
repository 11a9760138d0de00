// The open terminal sessions of this process: opening within the per-user and per-sandbox limits,
// finding a session to re-attach to (its owner only), the admin list, and ending sessions one at a
// time, per user (revoked), per sandbox (gone) or all (shutdown). Audit goes through a callback.
import { randomUUID } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import type { OpenPty } from './pty';
import { DEFAULT_GRACE_MS, DEFAULT_IDLE_MS, type EndReason, type SessionSummary, type SessionTap, TerminalSession } from './session';

export const DEFAULT_MAX_PER_USER = 3;
export const DEFAULT_MAX_PER_SANDBOX = 5;

export interface TerminalAuditEvent {
  phase: 'start' | 'end';
  sessionId: string;
  who: string;
  sandbox: string;
  start: Date;
  end: Date | null;
  bytesIn: number;
  bytesOut: number;
  reason: EndReason | null;
  /** Why ending the shell's processes failed, when it did. */
  error?: string;
}

export interface TerminalManagerOptions {
  openPty: OpenPty;
  maxPerUser?: number;
  maxPerSandbox?: number;
  graceMs?: number;
  /** Default idle disconnect; each open may pass its sandbox config's own. */
  idleMs?: number;
  ringBytes?: number;
  audit?: (e: TerminalAuditEvent) => void | Promise<void>;
  now?: () => number;
}

export interface TerminalLimits {
  maxPerUser?: number;
  maxPerSandbox?: number;
}

export interface OpenTerminalRequest extends TerminalLimits {
  /** The session id, when the caller needs it before the session exists; a random UUID otherwise. */
  id?: string;
  userId: string;
  sandboxId: string;
  cols: number;
  rows: number;
  env?: Record<string, string>;
  idleMs?: number;
  graceMs?: number;
  /** Sees every byte in and out (transcript recording). */
  tap?: SessionTap;
}

export class TerminalManager {
  private readonly sessions = new Map<string, TerminalSession>();
  /** Opens in flight, counted against the limits so concurrent opens cannot pass them together. */
  private readonly pending: { userId: string; sandboxId: string }[] = [];
  private readonly ended = new Set<Promise<void>>();

  constructor(private readonly opts: TerminalManagerOptions) {}

  /** Throws `rate_limited` when one more terminal for this user in this sandbox would pass a limit. */
  checkLimits(userId: string, sandboxId: string, limits: TerminalLimits = {}): void {
    const maxUser = limits.maxPerUser ?? this.opts.maxPerUser ?? DEFAULT_MAX_PER_USER;
    const maxSandbox = limits.maxPerSandbox ?? this.opts.maxPerSandbox ?? DEFAULT_MAX_PER_SANDBOX;
    const all = [...[...this.sessions.values()].filter((s) => !s.ended), ...this.pending];
    if (all.filter((s) => s.userId === userId).length >= maxUser)
      throw new AppError('rate_limited', `At most ${maxUser} open terminals per user: close one first.`, { details: { limit: 'per_user', max: maxUser } });
    if (all.filter((s) => s.sandboxId === sandboxId).length >= maxSandbox)
      throw new AppError('rate_limited', `At most ${maxSandbox} open terminals per sandbox: close one first.`, {
        details: { limit: 'per_sandbox', max: maxSandbox },
      });
  }

  async open(req: OpenTerminalRequest): Promise<TerminalSession> {
    this.checkLimits(req.userId, req.sandboxId, req);
    const slot = { userId: req.userId, sandboxId: req.sandboxId };
    this.pending.push(slot);
    const id = req.id ?? randomUUID();
    try {
      const pty = await this.opts.openPty({ sessionId: id, userId: req.userId, sandboxId: req.sandboxId, cols: req.cols, rows: req.rows, env: req.env ?? {} });
      const session = new TerminalSession({
        id,
        userId: req.userId,
        sandboxId: req.sandboxId,
        pty,
        cols: req.cols,
        rows: req.rows,
        graceMs: req.graceMs ?? this.opts.graceMs ?? DEFAULT_GRACE_MS,
        ...(req.tap ? { tap: req.tap } : {}),
        idleMs: req.idleMs ?? this.opts.idleMs ?? DEFAULT_IDLE_MS,
        ...(this.opts.ringBytes ? { ringBytes: this.opts.ringBytes } : {}),
        ...(this.opts.now ? { now: this.opts.now } : {}),
        onEnd: (s, reason, error) => this.onEnd(s, reason, error),
      });
      this.sessions.set(id, session);
      this.emit({ phase: 'start', ...this.base(session), end: null, reason: null });
      return session;
    } finally {
      this.pending.splice(this.pending.indexOf(slot), 1);
    }
  }

  /** The user's own live session, for a re-attach; another user's is reported as not found. */
  find(sessionId: string, userId: string): TerminalSession | AppError {
    const s = this.sessions.get(sessionId);
    if (!s || s.ended || s.userId !== userId) return new AppError('not_found', 'this terminal session was not found (it may have ended)');
    return s;
  }

  list(): SessionSummary[] {
    return [...this.sessions.values()].filter((s) => !s.ended).map((s) => s.summary());
  }

  /** Ends one session; false when it does not exist (or already ended). */
  async close(sessionId: string, reason: EndReason = 'closed'): Promise<boolean> {
    const s = this.sessions.get(sessionId);
    if (!s || s.ended) return false;
    await s.end(reason);
    return true;
  }

  /** Ends every session of a user (disabled or demoted: `revoked`). */
  async closeForUser(userId: string, reason: EndReason = 'revoked'): Promise<number> {
    return this.closeWhere((s) => s.userId === userId, reason);
  }

  /** Ends every session in a sandbox (removed or stopped: `sandbox_gone`). */
  async closeForSandbox(sandboxId: string, reason: EndReason = 'sandbox_gone'): Promise<number> {
    return this.closeWhere((s) => s.sandboxId === sandboxId, reason);
  }

  async closeAll(reason: EndReason = 'shutdown'): Promise<number> {
    const n = await this.closeWhere(() => true, reason);
    await Promise.all([...this.ended]);
    return n;
  }

  private async closeWhere(pred: (s: TerminalSession) => boolean, reason: EndReason): Promise<number> {
    const hit = [...this.sessions.values()].filter((s) => !s.ended && pred(s));
    await Promise.all(hit.map((s) => s.end(reason)));
    return hit.length;
  }

  private base(s: TerminalSession) {
    return { sessionId: s.id, who: s.userId, sandbox: s.sandboxId, start: new Date(s.startedAt), bytesIn: s.bytesIn, bytesOut: s.bytesOut };
  }

  private onEnd(s: TerminalSession, reason: EndReason, error: unknown): void {
    this.sessions.delete(s.id);
    this.emit({
      phase: 'end',
      ...this.base(s),
      end: new Date(s.endedAt ?? Date.now()),
      reason,
      ...(error ? { error: error instanceof Error ? error.message : String(error) } : {}),
    });
  }

  private emit(e: TerminalAuditEvent): void {
    const audit = this.opts.audit;
    if (!audit) return;
    // The audit write must not break the terminal; the callback owns reporting its own failures.
    const p = Promise.resolve()
      .then(() => audit(e))
      .catch(() => {})
      .finally(() => this.ended.delete(p));
    this.ended.add(p);
  }
}
