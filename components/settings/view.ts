/** The settings pages' API shapes, taken from the contracts' schemas (type-only), and their view helpers. */
import type { z } from 'zod';
import type { createdTokenOut, instanceOut, tokenOut, userOut } from '@/lib/api/schemas';

export type UserOut = z.output<typeof userOut>;
export type TokenOut = z.output<typeof tokenOut>;
export type InstanceOut = z.output<typeof instanceOut>;
export type CreatedToken = z.output<typeof createdTokenOut>;

export type TokenStatus = 'active' | 'expired' | 'revoked';

export function tokenStatus(t: Pick<TokenOut, 'revokedAt' | 'expiresAt'>, now: number): TokenStatus {
  if (t.revokedAt) return 'revoked';
  if (t.expiresAt && new Date(t.expiresAt).getTime() <= now) return 'expired';
  return 'active';
}
