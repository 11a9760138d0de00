import type { Metadata } from 'next';
import { Suspense } from 'react';
import { TesterPage } from '@/components/policy/tester-page';

export const metadata: Metadata = { title: 'Policy tester' };

export default function Page() {
  return (
    <Suspense>
      <TesterPage />
    </Suspense>
  );
}
