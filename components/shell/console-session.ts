import 'server-only';
import { cookies, headers } from 'next/headers';
import { CLIENT_IP_HEADER } from '@/lib/http/authenticate';
import { type PageSession, pageSession } from '@/lib/http/page-session';

/** The console viewer of the current request, from its session cookie. */
export async function consoleSession(): Promise<PageSession> {
  const h = await headers();
  const jar = await cookies();
  const cookie = jar
    .getAll()
    .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join('; ');
  return pageSession(cookie, h.get(CLIENT_IP_HEADER));
}
