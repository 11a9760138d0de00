import type { Metadata } from 'next';
import { Suspense } from 'react';
import { ProfilesPage } from '@/components/policy/profiles-page';

export const metadata: Metadata = { title: 'Exec policy' };

export default function Page() {
  return (
    <Suspense>
      <ProfilesPage />
    </Suspense>
  );
}
