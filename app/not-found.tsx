import type { Metadata } from 'next';
import { consoleSession } from '@/components/shell/console-session';
import { NotFoundBody } from '@/components/shell/not-found-body';
import { Shell } from '@/components/shell/shell';
import { ViewerProvider } from '@/components/viewer';

export const metadata: Metadata = { title: 'Not found' };

/** An address no route matches: inside the console's shell for a signed-in viewer, plain otherwise. */
export default async function NotFound() {
  const s = await consoleSession().catch(() => null);
  if (s?.status !== 'ok')
    return (
      <main className="mx-auto max-w-xl p-6">
        <NotFoundBody signedIn={false} />
      </main>
    );
  return (
    <ViewerProvider viewer={s.viewer}>
      <Shell>
        <NotFoundBody signedIn />
      </Shell>
    </ViewerProvider>
  );
}
