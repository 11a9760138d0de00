import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RuntimePage } from '@/components/runtime/runtime-page';

export const metadata: Metadata = { title: 'Runtime & Packages' };

export default function Page() {
  return (
    <Suspense>
      <RuntimePage />
    </Suspense>
  );
}
