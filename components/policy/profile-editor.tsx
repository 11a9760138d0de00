'use client';

import { ArrowLeft, Copy } from 'lucide-react';
import Link from 'next/link';
import { PageHeader } from '../shell/shell';
import { buttonVariants } from '../ui/button';
import { RetryableError, Skeleton } from '../ui/misc';
import { useCan } from '../viewer';
import { ProfileForm } from './profile-form';
import { useDenyGroups, useProfile } from './queries';

/**
 * A profile's page: a custom one is edited here, a preset is shown read-only (with a way to copy
 * it); `name` null is a new profile, started from the `from` profile's rules (balanced when absent).
 */
export function ProfileEditorPage({ name, from }: { name: string | null; from: string | null }) {
  const source = name ?? from ?? 'balanced';
  const stored = useProfile(source);
  const groups = useDenyGroups();
  const { allowed, why } = useCan('policy.write');
  const preset = !!name && !!stored.data?.builtin;
  const title = name ? (preset ? `Preset ${name}` : `Edit ${name}`) : 'New profile';
  return (
    <>
      <PageHeader
        title={title}
        description={
          preset
            ? 'Presets are built in and read-only. Copy one to a new profile to change it.'
            : 'The rules the exec policy decides with. Replay recorded commands against your edits before saving.'
        }
        actions={
          <>
            <Link className={buttonVariants({ variant: 'outline' })} href="/policy">
              <ArrowLeft aria-hidden /> Profiles
            </Link>
            {name ? (
              <Link className={buttonVariants({ variant: 'outline' })} href={`/policy/new?from=${encodeURIComponent(name)}`}>
                <Copy aria-hidden /> Copy to a new profile
              </Link>
            ) : null}
          </>
        }
      />
      {stored.error ? (
        <RetryableError error={stored.error} onRetry={() => void stored.refetch()} />
      ) : !stored.data ? (
        <div className="grid gap-4">
          <Skeleton className="h-28 w-full" />
          <Skeleton className="h-64 w-full" />
        </div>
      ) : (
        <ProfileForm
          key={source}
          mode={name ? (preset ? 'preset' : 'edit') : 'new'}
          stored={stored.data}
          groups={groups.data?.items}
          canWrite={allowed && !preset}
          why={preset ? 'Presets are read-only; copy it to a new profile.' : why}
        />
      )}
    </>
  );
}
