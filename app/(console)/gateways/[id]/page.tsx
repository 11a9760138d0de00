import type { Metadata } from 'next';
import { Suspense } from 'react';
import { GatewayDetailPage } from '@/components/gateways/gateway-detail-page';

export const metadata: Metadata = { title: 'Gateway' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <GatewayDetailPage id={id} />
    </Suspense>
  );
}
