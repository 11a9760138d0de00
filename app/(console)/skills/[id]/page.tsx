import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SkillDetailPage } from '@/components/skills/detail/skill-detail-page';

export const metadata: Metadata = { title: 'Skill' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense>
      <SkillDetailPage id={id} />
    </Suspense>
  );
}
