import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { recordAudit } from '../audit/audit';
import { systemActor } from '../auth/actor';
import { checkLogin } from '../auth/login';
import { loginInput } from '../auth/schemas';
import { isAppError } from '../core/errors';
import type { Services } from '../services';
import { CLIENT_IP_HEADER } from './authenticate';

/** A session unused this long ends; SKILLDOCK_SESSION_MAX_AGE bounds it however active it is. */
const IDLE_SECONDS = 12 * 3600;

/** next-auth configuration: credentials against the users table, JWT sessions. */
export function authOptions(s: Services): AuthOptions {
  const { config } = s;
  return {
    secret: s.authSecret,
    session: { strategy: 'jwt', maxAge: Math.min(IDLE_SECONDS, config.SKILLDOCK_SESSION_MAX_AGE) },
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        async authorize(credentials, req) {
          const parsed = loginInput.safeParse({ email: credentials?.email ?? '', password: credentials?.password ?? '' });
          if (!parsed.success) throw new Error('Enter your email and password.');
          const headers = (req?.headers ?? {}) as Record<string, string | undefined>;
          const ip = headers[CLIENT_IP_HEADER] ?? null;
          const actor = { ...systemActor, label: parsed.data.email, ip, userAgent: headers['user-agent'] ?? null };
          const windowMs = config.SKILLDOCK_LOGIN_WINDOW_MS;
          try {
            // Refused attempts are audited (aggregated) by checkLogin itself.
            const u = await checkLogin(
              s.database.db,
              { ...parsed.data, ip, userAgent: actor.userAgent },
              {
                client: { maxFailures: config.SKILLDOCK_LOGIN_MAX_FAILURES, windowMs },
                account: { maxFailures: config.SKILLDOCK_LOGIN_ACCOUNT_MAX_FAILURES, windowMs },
                ip: { maxFailures: config.SKILLDOCK_LOGIN_IP_MAX_FAILURES, windowMs },
              },
            );
            await recordAudit(s.database.db, { ...actor, userId: u.id }, { action: 'auth.login', targetType: 'user', targetId: u.id });
            return { id: u.id, email: u.email, name: u.name };
          } catch (e) {
            if (isAppError(e)) throw new Error(e.message);
            throw e;
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        // authAt survives token refreshes: sessions older than a password reset or disable, or than
        // SKILLDOCK_SESSION_MAX_AGE, are refused however often they were refreshed.
        if (user) {
          token.sub = user.id;
          token.authAt = Date.now();
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub } } as typeof session;
      },
    },
  };
}
