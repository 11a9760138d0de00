import { describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { RelayVerifier, signRelay } from './relay';
import type { TicketClaims } from './ticket';

const SECRET = 's'.repeat(40);
const CLAIMS: TicketClaims = { userId: 'u1', sandboxId: 'sbx-1', origin: 'http://console.test', sessionId: 'sess-1' };
const refusalOf = (r: unknown) => (isAppError(r) ? r.details?.refusal : 'accepted');

describe('relay grant', () => {
  it('carries the claims to a replica with the same secret, once', () => {
    const v = new RelayVerifier(SECRET);
    const grant = signRelay(SECRET, CLAIMS);
    expect(v.verify(grant)).toEqual(CLAIMS);
    expect(refusalOf(v.verify(grant))).toBe('reused');
  });

  it('refuses a grant signed with another secret, or with its claims changed', () => {
    const v = new RelayVerifier(SECRET);
    expect(refusalOf(v.verify(signRelay('t'.repeat(40), CLAIMS)))).toBe('unknown');
    const [, mac] = signRelay(SECRET, CLAIMS).split('.');
    const forged = Buffer.from(JSON.stringify({ claims: { ...CLAIMS, userId: 'u2' }, at: Date.now(), nonce: 'n' })).toString('base64url');
    expect(refusalOf(v.verify(`${forged}.${mac}`))).toBe('unknown');
    expect(refusalOf(v.verify('garbage'))).toBe('unknown');
  });

  it('refuses a stale grant', () => {
    let now = 1_000_000;
    const v = new RelayVerifier(SECRET, () => now);
    const grant = signRelay(SECRET, CLAIMS, now);
    now += 30_001;
    expect(refusalOf(v.verify(grant))).toBe('expired');
  });
});
