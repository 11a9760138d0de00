import { userCount } from '../auth/users';
import { isAppError } from '../core/errors';
import { getServices } from '../services';
import { authenticate } from './authenticate';

export interface PageViewer {
  userId: string;
  email: string;
  role: string;
  permissions: string[];
}

export type PageSession = { status: 'setup' } | { status: 'anonymous' } | { status: 'ok'; viewer: PageViewer };

/** What a console page needs to know about its viewer, from the request's Cookie header. */
export async function pageSession(cookie: string | null, ip: string | null): Promise<PageSession> {
  const services = await getServices();
  if ((await userCount(services.database.db)) === 0) return { status: 'setup' };
  try {
    const a = await authenticate(services, { authorization: null, cookie, ip, userAgent: null });
    return { status: 'ok', viewer: { userId: a.userId!, email: a.email, role: a.role, permissions: [...a.permissions].sort() } };
  } catch (e) {
    if (isAppError(e) && e.status === 401) return { status: 'anonymous' };
    throw e;
  }
}
