import type { Metadata } from 'next';
import { ProfileEditorPage } from '@/components/policy/profile-editor';

export const metadata: Metadata = { title: 'New exec profile' };

export default async function Page({ searchParams }: { searchParams: Promise<{ from?: string | string[] }> }) {
  const { from } = await searchParams;
  return <ProfileEditorPage name={null} from={typeof from === 'string' && /^[a-z][a-z0-9_-]{0,62}$/.test(from) ? from : null} />;
}
