import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AgentDetailPage } from '@/components/agents/agent-detail-page';

export const metadata: Metadata = { title: 'Agent' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <AgentDetailPage id={id} />
    </Suspense>
  );
}
