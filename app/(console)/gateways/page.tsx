import type { Metadata } from 'next';
import { Suspense } from 'react';
import { GatewaysPage } from '@/components/gateways/gateways-page';

export const metadata: Metadata = { title: 'Gateways' };

export default function Page() {
  return (
    <Suspense>
      <GatewaysPage />
    </Suspense>
  );
}
