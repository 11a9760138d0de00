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

function hashTicket(ticket: string): string {
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

/** Where tickets are kept: every replica issues and redeems through the same store. */
export interface TicketStore {
  issue(claims: TicketClaims): Promise<IssuedTicket>;
  /**
   * Spends the ticket (any attempt does, so a refused one cannot be retried) and returns its claims,
   * or the refusal. Used and expired tickets are remembered for one more lifetime so a replay is told
   * apart from a ticket that never existed.
   */
  redeem(ticket: string | null | undefined, expect: { origin: string | null | undefined; sandboxId: string }): Promise<TicketClaims | AppError>;
}

/** The checks after a ticket was spent, shared by every store. */
export function checkSpent(
  claims: TicketClaims,
  expiresAt: number,
  now: number,
  expect: { origin: string | null | undefined; sandboxId: string },
): TicketClaims | AppError {
  if (now >= expiresAt) return ticketRefused('expired');
  if (claims.sandboxId !== expect.sandboxId) return ticketRefused('other_sandbox');
  if (!sameOrigin(claims.origin, expect.origin ?? '')) return ticketRefused('wrong_origin');
  return { ...claims };
}

export function newTicket(): { ticket: string; hash: string } {
  const ticket = randomBytes(32).toString('base64url');
  return { ticket, hash: hashTicket(ticket) };
}

/** The hash a well-formed ticket is kept under; null for one that cannot have been issued. */
export function wellFormedHash(ticket: string): string | null {
  return TICKET_RE.test(ticket) ? hashTicket(ticket) : null;
}

/** One process's tickets (tests and single-process tools); replicas share DbTicketStore. */
export class MemoryTicketStore implements TicketStore {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(opts: TicketStoreOptions = {}) {
    this.ttlMs = opts.ttlMs ?? TICKET_TTL_MS;
    this.now = opts.now ?? Date.now;
  }

  async issue(claims: TicketClaims): Promise<IssuedTicket> {
    this.sweep();
    const { ticket, hash } = newTicket();
    const expiresAt = this.now() + this.ttlMs;
    this.entries.set(hash, { claims: { ...claims }, expiresAt, used: false });
    return { ticket, expiresAt };
  }

  async redeem(ticket: string | null | undefined, expect: { origin: string | null | undefined; sandboxId: string }): Promise<TicketClaims | AppError> {
    if (!ticket) return ticketRefused('missing');
    const hash = wellFormedHash(ticket);
    const entry = hash ? this.entries.get(hash) : undefined;
    if (!entry) return ticketRefused('unknown');
    if (entry.used) return ticketRefused('reused');
    entry.used = true;
    return checkSpent(entry.claims, entry.expiresAt, this.now(), expect);
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
