import type { Metadata } from 'next';
import { InstancesPage } from '@/components/sandboxes/instances/instances-page';

export const metadata: Metadata = { title: 'Sandbox instances' };

export default function Page() {
  return <InstancesPage />;
}
