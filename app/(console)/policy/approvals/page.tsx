import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ApprovalsPage } from '@/components/policy/approvals-page';

export const metadata: Metadata = { title: 'Exec approvals' };

export default function Page() {
  return (
    <Suspense>
      <ApprovalsPage />
    </Suspense>
  );
}
