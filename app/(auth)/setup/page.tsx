import { redirect } from 'next/navigation';
import { SetupForm } from '@/components/auth/setup-form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { userCount } from '@/lib/auth/users';
import { getServices } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'First-run setup' };

export default async function SetupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const s = await getServices();
  if ((await userCount(s.database.db)) > 0) redirect('/login');
  const given = (await searchParams).token;
  const token = typeof given === 'string' ? given.slice(0, 200) : '';
  return (
    <Card>
      <CardHeader>
        <CardTitle>Welcome to Skilldock</CardTitle>
        <CardDescription>Create the owner account. The owner manages users, roles and API tokens.</CardDescription>
      </CardHeader>
      <CardContent>
        <SetupForm token={token} />
      </CardContent>
    </Card>
  );
}
