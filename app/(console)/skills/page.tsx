import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SkillsPage } from '@/components/skills/skills-page';

export const metadata: Metadata = { title: 'Skills' };

export default function Page() {
  return (
    <Suspense>
      <SkillsPage />
    </Suspense>
  );
}
