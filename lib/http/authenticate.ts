import type { Actor } from '../auth/actor';
import { AGENT_SCOPED_PERMISSIONS, ROLE_PERMISSIONS } from '../auth/permissions';
import { AppError } from '../core/errors';
import type { Services } from '../services';
import { sessionDecoder } from './session-tokens';

/** Set by server.ts from the socket (or the trusted proxy chain); any client-sent value is overwritten. */
export const CLIENT_IP_HEADER = 'x-skilldock-client-ip';
export const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

export function parseCookies(header: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    if (!k || k in out) continue;
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      out[k] = part.slice(i + 1).trim();
    }
  }
  return out;
}

/** next-auth splits large session cookies into name.0, name.1, …; join them back. */
function sessionCookie(cookies: Record<string, string>): string | undefined {
  for (const name of SESSION_COOKIES) {
    if (cookies[name]) return cookies[name];
    const parts = Object.keys(cookies)
      .filter((k) => k.startsWith(`${name}.`))
      .sort((a, b) => Number(a.slice(name.length + 1)) - Number(b.slice(name.length + 1)));
    if (parts.length) return parts.map((k) => cookies[k]).join('');
  }
  return undefined;
}

export interface AuthInput {
  authorization: string | null;
  cookie: string | null;
  ip: string | null;
  userAgent: string | null;
}

/**
 * Resolves the caller from a bearer token or the session cookie. Tokens come from the token cache
 * (a resolved token kept for two seconds, dropped by a revocation or a user change on any replica)
 * and session users from the user cache, which every replica drops on a change, so a revoked token,
 * a disabled user, a changed role or a reset password takes effect at once.
 */
export async function authenticate(services: Services, input: AuthInput): Promise<Actor & { via: 'token' | 'session' }> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(input.authorization ?? '')?.[1];
  if (input.authorization && !bearer) throw new AppError('unauthenticated', 'Use "Authorization: Bearer <token>".');
  if (bearer) {
    const { token, user, permissions } = await services.tokens.resolve(bearer);
    // A scoped token holds agents.read and agents.exec at most, so every other route and socket refuses it by permission.
    const scoped = token.agentIds ?? null;
    if (scoped) for (const p of permissions) if (!AGENT_SCOPED_PERMISSIONS.includes(p)) permissions.delete(p);
    return {
      via: 'token',
      kind: 'token',
      userId: user.id,
      tokenId: token.id,
      email: user.email,
      role: user.role,
      permissions,
      agentScope: scoped,
      label: `${user.email} (token "${token.name}")`,
      ip: input.ip,
      userAgent: input.userAgent,
    };
  }
  const raw = sessionCookie(parseCookies(input.cookie));
  if (!raw) throw new AppError('unauthenticated', 'Sign in, or send an API token as "Authorization: Bearer <token>".');
  const jwt = await sessionDecoder().decode(raw, services.authSecret);
  if (!jwt) throw new AppError('unauthenticated', 'Your session is invalid or expired; sign in again.');
  const authAt = jwt.authAt;
  // next-auth's maxAge slides with every refresh; the sign-in time does not.
  if (Date.now() - authAt > services.config.SKILLDOCK_SESSION_MAX_AGE * 1000) {
    throw new AppError('unauthenticated', 'Your session has reached its maximum age; sign in again.');
  }
  const user = await services.users.get(jwt.sub);
  if (!user || user.disabled || authAt < user.sessionsValidAfter.getTime()) {
    throw new AppError('unauthenticated', user?.disabled ? 'This account is disabled.' : 'Your session has ended; sign in again.');
  }
  return {
    via: 'session',
    kind: 'user',
    userId: user.id,
    tokenId: null,
    email: user.email,
    role: user.role,
    permissions: ROLE_PERMISSIONS[user.role],
    label: user.email,
    ip: input.ip,
    userAgent: input.userAgent,
  };
}

/**
 * Cross-site request check for cookie-authenticated writes and socket upgrades: the Origin must be
 * this host or an allowed origin. Bearer-token calls carry no ambient credentials and skip it.
 */
export function originAllowed(origin: string | null, host: string | null, allowed: string[], secFetchSite?: string | null): boolean {
  if (!origin) return secFetchSite !== 'cross-site';
  if (allowed.includes(origin)) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
