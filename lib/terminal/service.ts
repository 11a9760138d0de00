// The browser terminal as the rest of Skilldock sees it: tickets for a running sandbox, the checks
// an upgrade passes before the handshake, opening or re-attaching a session once it is accepted,
// the admin list, the periodic access re-check, and the audit record of every session.
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { AppError, isAppError } from '../core/errors';
import { logger } from '../core/logger';
import { loadEnvFor } from '../sandbox/env/store';
import { checkAccess } from '../sandbox/instances/principal';
import { dueForRecycle, recycleFirst } from '../sandbox/instances/rollout';
import { type InstanceDeps, resolve } from '../sandbox/instances/service';
import { getTerminalSettings, type TerminalSettings } from '../settings';
import { type AccessDeps, stillAllowed } from './access';
import { DEFAULT_COLS, DEFAULT_ROWS, parseGeometry } from './frames';
import { TerminalManager } from './manager';
import { openPtyFor } from './open-pty';
import { remoteView, type SessionRegistry, type SessionRow, type SessionView } from './registry';
import { type RelayVerifier, signRelay } from './relay';
import type { SessionTap, TerminalConsumer, TerminalSession } from './session';
import { type TicketClaims, type TicketStore, ticketRefused } from './ticket';
import { DbTicketStore } from './ticket-db';

export const TERMINAL_PERMISSION = 'sandboxes.exec';

export interface TerminalDeps {
  sandboxes: InstanceDeps;
  user: AccessDeps['user'];
  /** Starts a transcript for a session when recording is on (null: not recorded). */
  transcript?: (
    s: { sessionId: string; actor: Actor; sandboxId: string; cols: number; rows: number },
    settings: TerminalSettings,
  ) => Promise<SessionTap | null>;
  now?: () => number;
  /** Set when replicas share the database: the session registry and relays between replicas. */
  cluster?: TerminalCluster;
}

export interface TerminalCluster {
  registry: SessionRegistry;
  /** Signs the claims a relay carries to the holder (the key derives from the shared auth secret). */
  authSecret: string;
  verifier: RelayVerifier;
}

/** Where a re-attach held by another replica is relayed to, settled before the handshake. */
export interface RelayTarget {
  address: string;
  grant: string;
}

export interface TicketAnswer {
  ticket: string;
  sessionId: string | null;
  expiresAt: string;
  idleSeconds: number;
  /** Whether the shell survives a restart of Skilldock (it does not: it lives in this process). */
  persistent: boolean;
  /** Whose sandbox it is when it is not the caller's own (they attached on purpose). */
  sharedWith: string | null;
}

/** The upgrade's query, as the socket route reads it. */
export interface TerminalQuery {
  ticket: string | null;
  sandbox: string | null;
  cols: string | null;
  rows: string | null;
  session: string | null;
  offset: string | null;
}

/** What the upgrade checks settled; the connection opens or re-attaches from it. */
export interface PreparedTerminal {
  actor: Actor;
  instanceId: string;
  /** Undefined only on a re-attach that keeps the session's size. */
  cols: number | undefined;
  rows: number | undefined;
  session: TerminalSession | null;
  offset: number | undefined;
  /** Attached on purpose to a sandbox that is not the user's own. */
  shared: boolean;
  /** The shell is held by another replica: the socket is relayed there. */
  relay?: RelayTarget;
}

export type { SessionView } from './registry';

const OFFSET_RE = /^(0|[1-9][0-9]{0,15})$/;

function badQuery(path: string, message: string): AppError {
  return new AppError('validation', message, { issues: [{ path, message }] });
}

export class TerminalService {
  readonly tickets: TicketStore;
  readonly manager: TerminalManager;
  private readonly actors = new Map<string, Actor>();
  private recheckTimer: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: TerminalDeps) {
    this.now = deps.now ?? Date.now;
    // One clock for ticket expiry, the admin list and the re-check.
    this.tickets = new DbTicketStore(deps.sandboxes.db, { now: this.now });
    this.manager = new TerminalManager({
      openPty: async (req) => {
        const { backend, sandbox } = await resolve(deps.sandboxes, req.sandboxId);
        return openPtyFor(backend, { ...req, sandboxId: sandbox.id });
      },
      audit: (e) => this.audit(e),
    });
  }

  /** Joins the cluster: closes asked of this replica by an admin on another one end the session here. */
  async start(): Promise<void> {
    await this.deps.cluster?.registry.listen((id, reason) => void this.manager.close(id, reason));
  }

  private async heldElsewhere(sessionId: string, userId: string): Promise<SessionRow | null> {
    return (await this.deps.cluster?.registry.heldElsewhere(sessionId, userId)) ?? null;
  }

  private relayed(grant: string, sandboxId: string): TicketClaims | AppError {
    if (!this.deps.cluster) return ticketRefused('unknown');
    const claims = this.deps.cluster.verifier.verify(grant);
    if (!isAppError(claims) && claims.sandboxId !== sandboxId) return ticketRefused('other_sandbox');
    return claims;
  }

  private settings(): Promise<TerminalSettings> {
    return getTerminalSettings(this.deps.sandboxes.db);
  }

  /** A single-use ticket for a running sandbox, bound to the caller and the Origin the call came from. */
  async issueTicket(actor: Actor, instanceId: string, opts: { sessionId?: string; origin: string | null; shared?: boolean }): Promise<TicketAnswer> {
    if (!actor.userId) throw new AppError('forbidden', 'Terminals are opened by users (or their API tokens).');
    const resolved = await resolve(this.deps.sandboxes, instanceId);
    const { row, sandbox } = resolved;
    const access = checkAccess(actor, sandbox.labels, opts.shared);
    if (sandbox.state !== 'running')
      throw new AppError('invalid_state', `This sandbox is ${sandbox.state}; a terminal opens only in a running sandbox.`, {
        hint: 'Start a sandbox from its config, then open the terminal.',
      });
    if (opts.sessionId) {
      const local = this.manager.find(opts.sessionId, actor.userId);
      const s = isAppError(local) ? await this.heldElsewhere(opts.sessionId, actor.userId) : local;
      if (!s) throw local;
      if (s.sandboxId !== instanceId) throw new AppError('not_found', 'this terminal session was not found in this sandbox');
    } else {
      // A new shell is a use: on a next_turn config a stale sandbox must be recycled first (an open session re-attaches as it is).
      const due = await dueForRecycle(this.deps.sandboxes.db, resolved);
      if (due) throw recycleFirst(due);
      const settings = await this.settings();
      this.manager.checkLimits(actor.userId, instanceId, settings);
    }
    const issued = await this.tickets.issue({
      userId: actor.userId,
      sandboxId: instanceId,
      origin: opts.origin ?? '',
      sessionId: opts.sessionId,
      ...(access.own ? {} : { shared: true }),
    });
    return {
      ticket: issued.ticket,
      sessionId: opts.sessionId ?? null,
      expiresAt: new Date(issued.expiresAt).toISOString(),
      idleSeconds: idleSecondsOf(row.config),
      persistent: false,
      sharedWith: access.own ? null : (access.principal ?? 'unknown'),
    };
  }

  /** Every check an upgrade passes before the handshake; throws the refusal (400, 401, 403, 404, 409, 429). */
  async prepare(actor: Actor, q: TerminalQuery, origin: string | null, relayGrant: string | null = null): Promise<PreparedTerminal> {
    if (!q.sandbox) throw badQuery('sandbox', 'Name the sandbox in the "sandbox" query parameter.');
    const geometry = parseGeometry(q.cols, q.rows);
    if (!geometry) throw badQuery('cols', 'cols and rows must be whole numbers from 1 to 500.');
    if (q.offset !== null && !OFFSET_RE.test(q.offset)) throw badQuery('offset', 'offset must be a byte offset (a whole number).');
    // A relay from another replica carries the claims of the ticket it already spent.
    const claims = relayGrant ? this.relayed(relayGrant, q.sandbox) : await this.tickets.redeem(q.ticket, { origin, sandboxId: q.sandbox });
    if (isAppError(claims)) throw claims;
    if (claims.userId !== actor.userId) throw new AppError('forbidden', 'the terminal ticket was issued to another user');
    if ((q.session ?? undefined) !== claims.sessionId) throw badQuery('session', 'The session parameter must match the session the ticket was issued for.');
    const offset = q.offset === null ? undefined : Number(q.offset);
    if (claims.sessionId) {
      const s = this.manager.find(claims.sessionId, claims.userId);
      if (isAppError(s)) {
        // Relayed at most once: a holder that no longer has the shell says so.
        const held = relayGrant ? null : await this.heldElsewhere(claims.sessionId, claims.userId);
        if (!held?.address || !this.deps.cluster) throw s;
        return {
          actor,
          instanceId: claims.sandboxId,
          cols: undefined,
          rows: undefined,
          session: null,
          offset,
          shared: !!claims.shared,
          relay: { address: held.address, grant: signRelay(this.deps.cluster.authSecret, claims) },
        };
      }
      // A re-attach that names no size keeps the one the shell has.
      const keep = q.cols === null && q.rows === null;
      return { actor, instanceId: claims.sandboxId, ...(keep ? { cols: undefined, rows: undefined } : geometry), session: s, offset, shared: !!claims.shared };
    }
    const resolved = await resolve(this.deps.sandboxes, claims.sandboxId);
    if (resolved.sandbox.state !== 'running')
      throw new AppError('invalid_state', `This sandbox is ${resolved.sandbox.state}; a terminal opens only in a running sandbox.`);
    const due = await dueForRecycle(this.deps.sandboxes.db, resolved);
    if (due) throw recycleFirst(due);
    this.manager.checkLimits(claims.userId, claims.sandboxId, await this.settings());
    // Checked again at the upgrade: the ticket's choice still has to match whose sandbox it is.
    const access = checkAccess(actor, resolved.sandbox.labels, claims.shared);
    return { actor, instanceId: claims.sandboxId, ...geometry, session: null, offset, shared: !access.own };
  }

  /** After the handshake: opens the shell (new session) or re-attaches, then hands output to the consumer. */
  async connect(p: PreparedTerminal, consumer: TerminalConsumer): Promise<TerminalSession> {
    let session = p.session;
    if (!session) {
      const [settings, { row }] = await Promise.all([this.settings(), resolve(this.deps.sandboxes, p.instanceId)]);
      // Personal variables only in the user's own sandbox; a shared one gets the config's alone.
      const user = p.shared ? null : { id: p.actor.userId! };
      const { env } = await loadEnvFor(this.deps.sandboxes.db, this.deps.sandboxes.secrets, { principal: user, sandboxConfig: { id: row.id } });
      const sessionId = randomUUID();
      const where = { sandboxId: p.instanceId, cols: p.cols ?? DEFAULT_COLS, rows: p.rows ?? DEFAULT_ROWS };
      const tap = (await this.deps.transcript?.({ sessionId, actor: p.actor, ...where }, settings)) ?? null;
      // Known before the session exists: its start record is written as it opens.
      this.actors.set(sessionId, p.actor);
      try {
        session = await this.manager.open({
          id: sessionId,
          userId: p.actor.userId!,
          ...where,
          env,
          idleMs: idleSecondsOf(row.config) * 1000,
          graceMs: settings.graceSeconds * 1000,
          maxPerUser: settings.maxPerUser,
          maxPerSandbox: settings.maxPerSandbox,
          ...(tap ? { tap } : {}),
        });
      } catch (e) {
        this.actors.delete(sessionId);
        tap?.end('internal');
        throw e;
      }
      await this.deps.cluster?.registry
        .add({ id: session.id, userId: session.userId, sandboxId: session.sandboxId, info: { user: p.actor.label, cols: where.cols, rows: where.rows } })
        .catch((e) => logger.warn('terminal session not registered', { sessionId, error: String(e) }));
      this.startRecheck(settings.recheckSeconds);
    }
    session.attach(consumer, { cols: p.cols, rows: p.rows, lastOffset: p.offset });
    return session;
  }

  list(): SessionView[] {
    const now = this.now();
    return this.manager.list().map((s) => ({
      id: s.id,
      user: this.actors.get(s.id)?.label ?? s.userId,
      userId: s.userId,
      sandboxId: s.sandboxId,
      startedAt: new Date(s.startedAt).toISOString(),
      lastInputAt: new Date(s.lastInputAt).toISOString(),
      idleSeconds: Math.max(0, Math.floor((now - s.lastInputAt) / 1000)),
      bytesIn: s.bytesIn,
      bytesOut: s.bytesOut,
      attached: s.attached,
      cols: s.cols,
      rows: s.rows,
    }));
  }

  /** Every replica's open sessions: this one's live figures, the others' as registered. */
  async listAll(): Promise<SessionView[]> {
    const local = this.list();
    const registry = this.deps.cluster?.registry;
    if (!registry) return local;
    const mine = new Set(local.map((v) => v.id));
    const others = (await registry.list()).filter((r) => r.replica !== registry.replicaId && !mine.has(r.id));
    const now = this.now();
    return [...local, ...others.map((r) => remoteView(r, now))];
  }

  /** An admin ends one session, on whichever replica holds it; audited once, here (the session's own end record follows on its holder). */
  async close(actor: Actor, sessionId: string): Promise<{ closed: true }> {
    const local = this.manager.list().find((x) => x.id === sessionId);
    const registry = this.deps.cluster?.registry;
    const remote = local || !registry ? null : await registry.find(sessionId);
    const s = local ?? remote;
    if (!s) throw new AppError('not_found', 'No open terminal session has this id (it may have ended).');
    await recordAudit(this.deps.sandboxes.db, actor, {
      action: 'sandbox.terminal.close',
      targetType: 'sandbox',
      targetId: s.sandboxId,
      before: { sessionId, user: remote ? (remote.info.user ?? remote.userId) : (this.actors.get(sessionId)?.label ?? s.userId) },
    });
    if (remote && registry) await registry.requestClose(remote.replica, sessionId);
    else await this.manager.close(sessionId, 'closed');
    return { closed: true };
  }

  /** The sandbox is going: its sessions end here and on every other replica holding one. */
  async closeForSandbox(instanceId: string): Promise<number> {
    const registry = this.deps.cluster?.registry;
    const others = registry ? await registry.othersInSandbox(instanceId) : [];
    await Promise.all(others.map((r) => registry?.requestClose(r.replica, r.id, 'sandbox_gone')));
    return (await this.manager.closeForSandbox(instanceId)) + others.length;
  }

  /** Re-checks every open session's holder; one that may no longer hold a terminal is cut off. */
  async recheck(): Promise<number> {
    let cut = 0;
    for (const s of this.manager.list()) {
      const actor = this.actors.get(s.id);
      const ok = actor
        ? await stillAllowed({ db: this.deps.sandboxes.db, user: this.deps.user, now: this.now }, actor, TERMINAL_PERMISSION, s.startedAt).catch(() => true)
        : false;
      if (!ok && (await this.manager.close(s.id, 'revoked'))) cut++;
    }
    return cut;
  }

  private startRecheck(seconds: number): void {
    if (this.recheckTimer) return;
    const tick = async () => {
      await this.recheck().catch((e) => logger.warn('terminal access re-check failed', { error: String(e) }));
      if (this.manager.list().length === 0) {
        this.recheckTimer = null;
        return;
      }
      const next = await this.settings().then(
        (s) => s.recheckSeconds,
        () => seconds,
      );
      this.recheckTimer = setTimeout(() => void tick(), next * 1000);
      this.recheckTimer.unref();
    };
    this.recheckTimer = setTimeout(() => void tick(), seconds * 1000);
    this.recheckTimer.unref();
  }

  /** Shutdown: every session ends (its shell and processes too) and is audited. */
  async closeAll(): Promise<void> {
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    this.recheckTimer = null;
    await this.deps.cluster?.registry.stop();
    await this.manager.closeAll('shutdown');
  }

  private async audit(e: Parameters<NonNullable<ConstructorParameters<typeof TerminalManager>[0]['audit']>>[0]): Promise<void> {
    if (e.phase === 'end')
      await this.deps.cluster?.registry
        .remove(e.sessionId)
        .catch((err) => logger.warn('terminal session row not removed', { sessionId: e.sessionId, error: String(err) }));
    const actor = this.actors.get(e.sessionId);
    if (!actor) return;
    if (e.phase === 'end') this.actors.delete(e.sessionId);
    await recordAudit(this.deps.sandboxes.db, actor, {
      action: e.phase === 'start' ? 'sandbox.terminal.start' : 'sandbox.terminal.end',
      targetType: 'sandbox',
      targetId: e.sandbox,
      after: {
        sessionId: e.sessionId,
        start: e.start.toISOString(),
        ...(e.end ? { end: e.end.toISOString(), durationSeconds: Math.round((e.end.getTime() - e.start.getTime()) / 1000) } : {}),
        bytesIn: e.bytesIn,
        bytesOut: e.bytesOut,
        ...(e.reason ? { reason: e.reason } : {}),
        ...(e.error ? { error: e.error } : {}),
      },
    }).catch((err) => logger.error('terminal audit record failed', { sessionId: e.sessionId, error: String(err) }));
  }
}

function idleSecondsOf(config: unknown): number {
  const v = (config as { terminalIdleDisconnectSec?: unknown }).terminalIdleDisconnectSec;
  return typeof v === 'number' && v >= 60 ? v : 900;
}
