import { createHash } from 'node:crypto';
import { decode } from 'next-auth/jwt';

/** What a request takes from a session cookie; the user's status and role are read per request elsewhere. */
export interface SessionClaims {
  sub: string;
  authAt: number;
  /** Seconds since the epoch, as in the token. */
  exp: number | null;
}

export interface SessionDecoderOptions {
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
}

/**
 * Decrypting a session cookie derives a key and decrypts a JWE on every request; the claims of a
 * cookie seen a moment ago are kept by a hash of the cookie and the secret. Only what decrypted
 * is kept, never past the token's own expiry; bounded, oldest first out.
 */
export class SessionDecoder {
  private entries = new Map<string, { claims: SessionClaims; at: number }>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  decodes = 0;

  constructor(opts: SessionDecoderOptions = {}) {
    this.maxEntries = opts.maxEntries ?? 2_000;
    this.ttlMs = opts.ttlMs ?? 60_000;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  private usable(claims: SessionClaims, now: number): boolean {
    return claims.exp === null || now < claims.exp * 1000;
  }

  async decode(raw: string, secret: string): Promise<SessionClaims | null> {
    const key = createHash('sha256').update(secret).update('\0').update(raw).digest('base64url');
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit) {
      if (now - hit.at < this.ttlMs && this.usable(hit.claims, now)) return hit.claims;
      this.entries.delete(key);
    }
    this.decodes++;
    const jwt = await decode({ token: raw, secret }).catch(() => null);
    if (!jwt?.sub) return null;
    const claims: SessionClaims = {
      sub: jwt.sub,
      authAt: typeof jwt.authAt === 'number' ? jwt.authAt : 0,
      exp: typeof jwt.exp === 'number' ? jwt.exp : null,
    };
    if (!this.usable(claims, now)) return null;
    this.entries.set(key, { claims, at: now });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return claims;
  }
}

/** One per process: route bundles each load this module, so the instance lives on globalThis. */
const KEY = Symbol.for('skilldock.session-decoder');
const g = globalThis as unknown as Record<symbol, SessionDecoder | undefined>;
export const sessionDecoder = (): SessionDecoder => (g[KEY] ??= new SessionDecoder());
