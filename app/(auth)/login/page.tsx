import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { LoginForm } from '@/components/auth/login-form';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { userCount } from '@/lib/auth/users';
import { warnHostMismatchOnce } from '@/lib/http/public-url';
import { getServices } from '@/lib/services';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in' };

export default async function LoginPage() {
  const s = await getServices();
  if ((await userCount(s.database.db)) === 0) redirect('/setup');
  const mismatch = warnHostMismatchOnce((await headers()).get('host'), s.config);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sign in</CardTitle>
        <CardDescription>Use the account an owner created for you.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mismatch ? (
          <p role="note" className="rounded-md border border-warning/50 bg-warning/10 px-3 py-2 text-xs text-foreground" data-testid="public-url-note">
            You opened Skilldock as <code>{mismatch.used}</code>, but its public URL is <code>{mismatch.configured}</code>. Signing in works; links Skilldock
            builds use the public URL. Set <code>SKILLDOCK_PUBLIC_URL</code> to the address you use.
          </p>
        ) : null}
        <Suspense>
          <LoginForm />
        </Suspense>
      </CardContent>
    </Card>
  );
}
