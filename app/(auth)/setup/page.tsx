import { redirect } from 'next/navigation';
import { SetupForm } from '@/components/auth/setup-form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { userCount } from '@/lib/auth/users';
import { getServices } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'First-run setup' };

export default async function SetupPage() {
  const s = await getServices();
  if ((await userCount(s.database.db)) > 0) redirect('/login');
  return (
    <Card>
      <CardHeader>
        <CardTitle>Welcome to Skilldock</CardTitle>
        <CardDescription>Create the owner account. The owner manages users, roles and API tokens.</CardDescription>
      </CardHeader>
      <CardContent>
        <SetupForm />
      </CardContent>
    </Card>
  );
}
