import type { Metadata } from 'next';
import { ProfileEditorPage } from '@/components/policy/profile-editor';

export const metadata: Metadata = { title: 'Exec profile' };

export default async function Page({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return <ProfileEditorPage name={decodeURIComponent(name)} from={null} />;
}
