import type { Metadata } from 'next';
import { ArtifactsPage } from '@/components/sandboxes/artifacts/artifacts-page';

export const metadata: Metadata = { title: 'Collected artifacts' };

export default function Page() {
  return <ArtifactsPage />;
}
