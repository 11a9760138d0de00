import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { Shell } from '@/components/shell/shell';
import { ViewerProvider } from '@/components/viewer';
import { CLIENT_IP_HEADER } from '@/lib/http/authenticate';
import { pageSession } from '@/lib/http/page-session';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const h = await headers();
  const jar = await cookies();
  const cookie = jar
    .getAll()
    .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join('; ');
  const s = await pageSession(cookie, h.get(CLIENT_IP_HEADER));
  if (s.status === 'setup') redirect('/setup');
  if (s.status === 'anonymous') redirect('/login');
  return (
    <ViewerProvider viewer={s.viewer}>
      <Shell>{children}</Shell>
    </ViewerProvider>
  );
}
