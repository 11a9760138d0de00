import { describe, expect, it } from 'vitest';
import { AppError, isAppError } from '@/lib/core/errors';
import { type TicketClaims, TicketStore } from './ticket';

const ORIGIN = 'https://console.example';
const CLAIMS: TicketClaims = { userId: 'u1', sandboxId: 'sbx-1', origin: ORIGIN };

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function refusal(r: unknown): { code: string; refusal: unknown; status: number } {
  expect(isAppError(r)).toBe(true);
  const e = r as AppError;
  return { code: e.code, refusal: e.details?.refusal, status: e.status };
}

describe('TicketStore', () => {
  it('issues a random 32-byte ticket and redeems it once for its claims', () => {
    const store = new TicketStore();
    const a = store.issue({ ...CLAIMS, sessionId: 's-9' });
    const b = store.issue(CLAIMS);
    expect(Buffer.from(a.ticket, 'base64url')).toHaveLength(32);
    expect(a.ticket).not.toBe(b.ticket);
    expect(store.redeem(a.ticket, { origin: ORIGIN, sandboxId: 'sbx-1' })).toEqual({ ...CLAIMS, sessionId: 's-9' });
  });

  it('keeps only a hash of the ticket', () => {
    const store = new TicketStore();
    const { ticket } = store.issue(CLAIMS);
    const held = JSON.stringify([...(store as unknown as { entries: Map<string, unknown> }).entries]);
    expect(held).not.toContain(ticket);
  });

  it('refuses a reused ticket', () => {
    const store = new TicketStore();
    const { ticket } = store.issue(CLAIMS);
    store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-1' });
    expect(refusal(store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-1' }))).toEqual({ code: 'unauthenticated', refusal: 'reused', status: 401 });
  });

  it('refuses an expired ticket, after about a minute', () => {
    const c = clock();
    const store = new TicketStore({ now: c.now });
    const { ticket, expiresAt } = store.issue(CLAIMS);
    expect(expiresAt - c.now()).toBe(60_000);
    c.advance(60_000);
    expect(refusal(store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-1' }))).toEqual({ code: 'unauthenticated', refusal: 'expired', status: 401 });
  });

  it('refuses a ticket for another sandbox and burns it', () => {
    const store = new TicketStore();
    const { ticket } = store.issue(CLAIMS);
    expect(refusal(store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-2' }))).toEqual({ code: 'forbidden', refusal: 'other_sandbox', status: 403 });
    expect(refusal(store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('reused');
  });

  it('refuses a wrong or absent Origin', () => {
    const store = new TicketStore();
    const a = store.issue(CLAIMS);
    expect(refusal(store.redeem(a.ticket, { origin: 'https://evil.example', sandboxId: 'sbx-1' }))).toEqual({
      code: 'forbidden',
      refusal: 'wrong_origin',
      status: 403,
    });
    const b = store.issue(CLAIMS);
    expect(refusal(store.redeem(b.ticket, { origin: null, sandboxId: 'sbx-1' })).refusal).toBe('wrong_origin');
    const c = store.issue(CLAIMS);
    expect(store.redeem(c.ticket, { origin: 'HTTPS://Console.Example', sandboxId: 'sbx-1' })).toEqual(CLAIMS);
  });

  it('binds a ticket issued without an Origin to upgrades without one', () => {
    const store = new TicketStore();
    const script = { ...CLAIMS, origin: '' };
    const a = store.issue(script);
    expect(refusal(store.redeem(a.ticket, { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('wrong_origin');
    const b = store.issue(script);
    expect(store.redeem(b.ticket, { origin: null, sandboxId: 'sbx-1' })).toEqual(script);
  });

  it('refuses a missing, malformed or unknown ticket', () => {
    const store = new TicketStore();
    expect(refusal(store.redeem(undefined, { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('missing');
    expect(refusal(store.redeem('', { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('missing');
    expect(refusal(store.redeem('x'.repeat(5000), { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('unknown');
    expect(refusal(store.redeem('A'.repeat(43), { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('unknown');
  });

  it('forgets spent tickets after one more lifetime', () => {
    const c = clock();
    const store = new TicketStore({ now: c.now });
    store.issue(CLAIMS);
    c.advance(120_001);
    store.issue(CLAIMS);
    expect(store.size).toBe(1);
    expect(new AppError('forbidden', 'x').status).toBe(403);
  });
});
