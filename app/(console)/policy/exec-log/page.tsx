import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ExecLogPage } from '@/components/policy/exec-log-page';

export const metadata: Metadata = { title: 'Exec log' };

export default function Page() {
  return (
    <Suspense>
      <ExecLogPage />
    </Suspense>
  );
}
