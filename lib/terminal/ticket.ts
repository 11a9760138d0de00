// Single-use terminal tickets. The WebSocket upgrade carries no body and browsers cannot set headers
// on it, so the console hands out a short-lived random ticket bound to the user, the sandbox and the
// page's Origin. Only a hash is kept: a heap dump or a log of the map never yields a usable ticket.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppError } from '@/lib/core/errors';

export const TICKET_TTL_MS = 60_000;

export interface TicketClaims {
  userId: string;
  /** The sandbox instance the terminal opens in. */
  sandboxId: string;
  /**
   * The Origin of the page that asked for the ticket; the upgrade must come from the same one. Empty
   * for a client that sent none (an API token): its upgrade must carry none either, so a ticket
   * fetched by a script is of no use to a web page.
   */
  origin: string;
  /** Set when the ticket asks to re-attach to this terminal session. */
  sessionId?: string;
  /** The sandbox is not the user's own and they chose to attach to it: no personal variables. */
  shared?: boolean;
}

export interface IssuedTicket {
  ticket: string;
  expiresAt: number;
}

/** Why a ticket was refused; each maps to one AppError code (401 or 403) and a distinct `details.refusal`. */
export type TicketRefusal = 'missing' | 'unknown' | 'expired' | 'reused' | 'other_sandbox' | 'wrong_origin';

interface Entry {
  claims: TicketClaims;
  expiresAt: number;
  used: boolean;
}

export interface TicketStoreOptions {
  ttlMs?: number;
  now?: () => number;
}

const TICKET_RE = /^[A-Za-z0-9_-]{43}$/;

function hash(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

export function ticketRefused(refusal: TicketRefusal): AppError {
  const forbidden = refusal === 'other_sandbox' || refusal === 'wrong_origin';
  const text: Record<TicketRefusal, string> = {
    missing: 'a terminal ticket is required',
    unknown: 'the terminal ticket is not valid',
    expired: 'the terminal ticket has expired',
    reused: 'the terminal ticket was already used',
    other_sandbox: 'the terminal ticket is for another sandbox',
    wrong_origin: 'the terminal ticket was issued to another origin',
  };
  return new AppError(forbidden ? 'forbidden' : 'unauthenticated', text[refusal], {
    details: { refusal },
    ...(forbidden ? {} : { hint: 'ask for a new ticket and connect within a minute' }),
  });
}

/** Origins compare as the browser sends them: scheme://host[:port], case-insensitive, no path. */
function sameOrigin(a: string, b: string): boolean {
  const x = Buffer.from(a.trim().toLowerCase());
  const y = Buffer.from(b.trim().toLowerCase());
  return x.length === y.length && timingSafeEqual(x, y);
}

export class TicketStore {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(opts: TicketStoreOptions = {}) {
    this.ttlMs = opts.ttlMs ?? TICKET_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  issue(claims: TicketClaims): IssuedTicket {
    this.sweep();
    const ticket = randomBytes(32).toString('base64url');
    const expiresAt = this.now() + this.ttlMs;
    this.entries.set(hash(ticket), { claims: { ...claims }, expiresAt, used: false });
    return { ticket, expiresAt };
  }

  /**
   * Spends the ticket (any attempt does, so a refused one cannot be retried) and returns its claims,
   * or the refusal. Used and expired tickets are remembered for one more lifetime so a replay is told
   * apart from a ticket that never existed.
   */
  redeem(ticket: string | null | undefined, expect: { origin: string | null | undefined; sandboxId: string }): TicketClaims | AppError {
    if (!ticket) return ticketRefused('missing');
    if (!TICKET_RE.test(ticket)) return ticketRefused('unknown');
    const entry = this.entries.get(hash(ticket));
    if (!entry) return ticketRefused('unknown');
    if (entry.used) return ticketRefused('reused');
    entry.used = true;
    if (this.now() >= entry.expiresAt) return ticketRefused('expired');
    if (entry.claims.sandboxId !== expect.sandboxId) return ticketRefused('other_sandbox');
    if (!sameOrigin(entry.claims.origin, expect.origin ?? '')) return ticketRefused('wrong_origin');
    return { ...entry.claims };
  }

  /** Live and remembered tickets (for tests and the admin view). */
  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [k, e] of this.entries) if (e.expiresAt < cutoff) this.entries.delete(k);
  }
}
