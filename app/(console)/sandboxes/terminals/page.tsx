import type { Metadata } from 'next';
import { Suspense } from 'react';
import { TerminalsPage } from '@/components/sandboxes/terminals/terminals-page';

export const metadata: Metadata = { title: 'Terminal sessions' };

export default function Page() {
  return (
    <Suspense>
      <TerminalsPage />
    </Suspense>
  );
}
