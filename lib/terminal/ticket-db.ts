// Terminal tickets in the database, so a ticket issued through one replica is redeemed on whichever
// replica the upgrade lands. Only the hash is stored; spending is one atomic update, so two
// replicas redeeming the same ticket at once cannot both win.
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { terminalTickets } from '@/db/schema';
import type { AppError } from '../core/errors';
import { logger } from '../core/logger';
import {
  checkSpent,
  type IssuedTicket,
  newTicket,
  TICKET_TTL_MS,
  type TicketClaims,
  type TicketStore,
  type TicketStoreOptions,
  ticketRefused,
  wellFormedHash,
} from './ticket';

/** Sweep expired rows at most this often (each issue may trigger one). */
const SWEEP_EVERY_MS = 30_000;

export class DbTicketStore implements TicketStore {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(
    private readonly db: AppDb,
    opts: TicketStoreOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? TICKET_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  async issue(claims: TicketClaims): Promise<IssuedTicket> {
    await this.sweep();
    const { ticket, hash } = newTicket();
    const expiresAt = this.now() + this.ttlMs;
    await this.db.insert(terminalTickets).values({ hash, claims: { ...claims }, expiresAt: new Date(expiresAt) });
    return { ticket, expiresAt };
  }

  async redeem(ticket: string | null | undefined, expect: { origin: string | null | undefined; sandboxId: string }): Promise<TicketClaims | AppError> {
    if (!ticket) return ticketRefused('missing');
    const hash = wellFormedHash(ticket);
    if (!hash) return ticketRefused('unknown');
    const [spent] = await this.db
      .update(terminalTickets)
      .set({ usedAt: new Date(this.now()) })
      .where(and(eq(terminalTickets.hash, hash), isNull(terminalTickets.usedAt)))
      .returning({ claims: terminalTickets.claims, expiresAt: terminalTickets.expiresAt });
    if (spent) return checkSpent(spent.claims as TicketClaims, spent.expiresAt.getTime(), this.now(), expect);
    // Not spent by us: either someone spent it before, or it never existed (or was swept).
    const [known] = await this.db.select({ hash: terminalTickets.hash }).from(terminalTickets).where(eq(terminalTickets.hash, hash));
    return ticketRefused(known ? 'reused' : 'unknown');
  }

  /** Rows past one more lifetime after expiry go: until then a replay reads as `reused`/`expired`. */
  async sweep(force = false): Promise<number> {
    const now = this.now();
    if (!force && now - this.lastSweep < SWEEP_EVERY_MS) return 0;
    this.lastSweep = now;
    try {
      const gone = await this.db
        .delete(terminalTickets)
        .where(lt(terminalTickets.expiresAt, new Date(now - this.ttlMs)))
        .returning({ hash: terminalTickets.hash });
      return gone.length;
    } catch (e) {
      logger.warn('terminal ticket sweep failed', { error: String(e) });
      return 0;
    }
  }
}
