import { redirect } from 'next/navigation';
import { consoleSession } from '@/components/shell/console-session';
import { Shell } from '@/components/shell/shell';
import { ViewerProvider } from '@/components/viewer';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const s = await consoleSession();
  if (s.status === 'setup') redirect('/setup');
  if (s.status === 'anonymous') redirect('/login');
  return (
    <ViewerProvider viewer={s.viewer}>
      <Shell>{children}</Shell>
    </ViewerProvider>
  );
}
