import type { z } from 'zod';
import type { tokenOut, userOut } from '@/lib/api/schemas';
import type { instanceInfo } from '@/lib/instance';

/** Response shapes, taken from the server's own schemas (type-only imports: nothing server-side is bundled). */
export type UserOut = z.infer<typeof userOut>;
export type TokenOut = z.infer<typeof tokenOut>;
export type InstanceOut = Awaited<ReturnType<typeof instanceInfo>>;

export type TokenStatus = 'active' | 'expired' | 'revoked';

export function tokenStatus(t: Pick<TokenOut, 'revokedAt' | 'expiresAt'>, now: number): TokenStatus {
  if (t.revokedAt) return 'revoked';
  if (t.expiresAt && new Date(t.expiresAt).getTime() <= now) return 'expired';
  return 'active';
}

export const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));
