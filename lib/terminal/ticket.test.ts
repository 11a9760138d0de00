import { describe, expect, it } from 'vitest';
import { AppError, isAppError } from '@/lib/core/errors';
import { MemoryTicketStore, type TicketClaims } from './ticket';

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

describe('MemoryTicketStore', () => {
  it('issues a random 32-byte ticket and redeems it once for its claims', async () => {
    const store = new MemoryTicketStore();
    const a = await store.issue({ ...CLAIMS, sessionId: 's-9' });
    const b = await store.issue(CLAIMS);
    expect(Buffer.from(a.ticket, 'base64url')).toHaveLength(32);
    expect(a.ticket).not.toBe(b.ticket);
    expect(await store.redeem(a.ticket, { origin: ORIGIN, sandboxId: 'sbx-1' })).toEqual({ ...CLAIMS, sessionId: 's-9' });
  });

  it('keeps only a hash of the ticket', async () => {
    const store = new MemoryTicketStore();
    const { ticket } = await store.issue(CLAIMS);
    const held = JSON.stringify([...(store as unknown as { entries: Map<string, unknown> }).entries]);
    expect(held).not.toContain(ticket);
  });

  it('refuses a reused ticket', async () => {
    const store = new MemoryTicketStore();
    const { ticket } = await store.issue(CLAIMS);
    await store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-1' });
    expect(refusal(await store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-1' }))).toEqual({ code: 'unauthenticated', refusal: 'reused', status: 401 });
  });

  it('refuses an expired ticket, after about a minute', async () => {
    const c = clock();
    const store = new MemoryTicketStore({ now: c.now });
    const { ticket, expiresAt } = await store.issue(CLAIMS);
    expect(expiresAt - c.now()).toBe(60_000);
    c.advance(60_000);
    expect(refusal(await store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-1' }))).toEqual({ code: 'unauthenticated', refusal: 'expired', status: 401 });
  });

  it('refuses a ticket for another sandbox and burns it', async () => {
    const store = new MemoryTicketStore();
    const { ticket } = await store.issue(CLAIMS);
    expect(refusal(await store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-2' }))).toEqual({ code: 'forbidden', refusal: 'other_sandbox', status: 403 });
    expect(refusal(await store.redeem(ticket, { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('reused');
  });

  it('refuses a wrong or absent Origin', async () => {
    const store = new MemoryTicketStore();
    const a = await store.issue(CLAIMS);
    expect(refusal(await store.redeem(a.ticket, { origin: 'https://evil.example', sandboxId: 'sbx-1' }))).toEqual({
      code: 'forbidden',
      refusal: 'wrong_origin',
      status: 403,
    });
    const b = await store.issue(CLAIMS);
    expect(refusal(await store.redeem(b.ticket, { origin: null, sandboxId: 'sbx-1' })).refusal).toBe('wrong_origin');
    const c = await store.issue(CLAIMS);
    expect(await store.redeem(c.ticket, { origin: 'HTTPS://Console.Example', sandboxId: 'sbx-1' })).toEqual(CLAIMS);
  });

  it('binds a ticket issued without an Origin to upgrades without one', async () => {
    const store = new MemoryTicketStore();
    const script = { ...CLAIMS, origin: '' };
    const a = await store.issue(script);
    expect(refusal(await store.redeem(a.ticket, { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('wrong_origin');
    const b = await store.issue(script);
    expect(await store.redeem(b.ticket, { origin: null, sandboxId: 'sbx-1' })).toEqual(script);
  });

  it('refuses a missing, malformed or unknown ticket', async () => {
    const store = new MemoryTicketStore();
    expect(refusal(await store.redeem(undefined, { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('missing');
    expect(refusal(await store.redeem('', { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('missing');
    expect(refusal(await store.redeem('x'.repeat(5000), { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('unknown');
    expect(refusal(await store.redeem('A'.repeat(43), { origin: ORIGIN, sandboxId: 'sbx-1' })).refusal).toBe('unknown');
  });

  it('forgets spent tickets after one more lifetime', async () => {
    const c = clock();
    const store = new MemoryTicketStore({ now: c.now });
    await store.issue(CLAIMS);
    c.advance(120_001);
    await store.issue(CLAIMS);
    expect(store.size).toBe(1);
    expect(new AppError('forbidden', 'x').status).toBe(403);
  });
});
