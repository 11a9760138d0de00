import { encode } from 'next-auth/jwt';

/** A NextAuth session cookie for `sub`, signed with `secret`, as the browser would send it. */
export async function sessionCookieFor(secret: string, sub: string, authAt = Date.now()): Promise<string> {
  return `next-auth.session-token=${await encode({ token: { sub, authAt }, secret })}`;
}
