import type { Metadata } from 'next';
import { InstancePage } from '@/components/sandboxes/instances/instance-page';

export const metadata: Metadata = { title: 'Sandbox' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <InstancePage id={decodeURIComponent(id)} />;
}
