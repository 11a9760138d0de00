import { Compass } from 'lucide-react';
import Link from 'next/link';
import { Button } from '../ui/button';
import { EmptyState } from '../ui/misc';

/** What a missing page shows: what happened and a way back. */
export function NotFoundBody({ signedIn }: { signedIn: boolean }) {
  return (
    <div className="py-10">
      <h1 className="sr-only">Page not found</h1>
      <EmptyState
        icon={<Compass aria-hidden />}
        title="This page does not exist"
        action={
          <div className="flex flex-wrap justify-center gap-2">
            <Button asChild>
              <Link href={signedIn ? '/overview' : '/login'}>{signedIn ? 'Back to the overview' : 'Sign in'}</Link>
            </Button>
            {signedIn ? (
              <Button variant="outline" asChild>
                <Link href="/jobs">Open Jobs</Link>
              </Button>
            ) : null}
          </div>
        }
      >
        The address may be mistyped, or what it pointed to was removed.{signedIn ? ' Press Ctrl+K to search for a page, skill or job.' : ''}
      </EmptyState>
    </div>
  );
}
