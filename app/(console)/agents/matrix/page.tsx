import type { Metadata } from 'next';
import { Suspense } from 'react';
import { MatrixPage } from '@/components/agents/matrix-page';

export const metadata: Metadata = { title: 'Allowlist matrix' };

export default function Page() {
  return (
    <Suspense>
      <MatrixPage />
    </Suspense>
  );
}
