'use client';

import { FlaskConical, Plus, Search, ShieldCheck } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { ApiError } from '../api';
import { PageHeader } from '../shell/shell';
import { Button, buttonVariants } from '../ui/button';
import { Confirm } from '../ui/dialog';
import { Input } from '../ui/input';
import { EmptyState, ErrorNote, RetryableError, Tip } from '../ui/misc';
import { useUrlFilters } from '../ui/use-url-filters';
import { useCan } from '../viewer';
import { PolicyTabs } from './policy-tabs';
import { ProfileTable } from './profile-table';
import { type ProfileView, useDeleteProfile, useProfiles } from './queries';

const parseSearch = (p: URLSearchParams) => ({ q: (p.get('q') ?? '').slice(0, 100) });
const searchQuery = (f: { q: string }) => (f.q ? new URLSearchParams({ q: f.q }).toString() : '');
const matches = (p: ProfileView, q: string) => {
  const t = q.trim().toLowerCase();
  return !t || p.name.includes(t) || p.description.toLowerCase().includes(t) || p.usedBy.some((a) => a.toLowerCase().includes(t));
};

/** The presets (read-only) and the custom profiles, with the agents deciding with each. */
export function ProfilesPage() {
  const list = useProfiles();
  const { allowed, why } = useCan('policy.write');
  const del = useDeleteProfile();
  const [deleting, setDeleting] = useState<ProfileView | null>(null);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const newButton = (
    <Tip content={why}>
      {allowed ? (
        <Link className={buttonVariants()} href="/policy/new">
          <Plus aria-hidden /> New profile
        </Link>
      ) : (
        <Button disabled>
          <Plus aria-hidden /> New profile
        </Button>
      )}
    </Tip>
  );
  const [{ q }, setSearch] = useUrlFilters(parseSearch, searchQuery);
  const items = list.data?.items ?? [];
  const presets = items.filter((p) => p.builtin);
  const allCustom = items.filter((p) => !p.builtin);
  const custom = allCustom.filter((p) => matches(p, q));
  return (
    <>
      <PageHeader
        title="Exec policy"
        description="Which shell commands agents may run, decided from a real parse of each command: risk profiles, deny groups, approvals."
        actions={
          <>
            <Link className={buttonVariants({ variant: 'outline' })} href="/policy/tester">
              <FlaskConical aria-hidden /> Tester
            </Link>
            {newButton}
          </>
        }
      />
      <PolicyTabs />
      {deleteError ? <DeleteError error={deleteError} onDismiss={() => setDeleteError(null)} /> : null}
      {list.error ? (
        <RetryableError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <div className="grid gap-6">
          <ProfileTable title="Presets" rows={presets} loading={list.isPending} defaultProfile={list.data?.defaultProfile} canWrite={allowed} why={why} />
          {allCustom.length > 0 ? (
            <div className="relative max-w-sm" role="search" aria-label="Search profiles">
              <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
              <Input
                type="search"
                aria-label="Search custom profiles"
                placeholder="Name, description or agent"
                className="pl-8"
                maxLength={100}
                value={q}
                onChange={(e) => setSearch({ q: e.target.value })}
              />
            </div>
          ) : null}
          {!list.isPending && allCustom.length === 0 ? (
            <EmptyState icon={<ShieldCheck />} title="No custom profiles yet" action={newButton}>
              Start from a preset and change what you need: tighten the allowed commands, turn a deny group to approval, or forbid paths. Test a command against
              any profile in the tester.
            </EmptyState>
          ) : (
            <ProfileTable
              title="Custom profiles"
              rows={custom}
              loading={list.isPending}
              defaultProfile={list.data?.defaultProfile}
              canWrite={allowed}
              why={why}
              onDelete={(p) => {
                setDeleteError(null);
                setDeleting(p);
              }}
            />
          )}
        </div>
      )}
      <Confirm
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete ${deleting?.name ?? ''}?`}
        description={
          <div className="grid gap-2">
            <p>
              The profile <strong>{deleting?.name}</strong> and its rules are removed.
            </p>
            {deleting?.usedBy.length ? (
              <p role="status" data-testid="profile-in-use" className="rounded-md border border-destructive/40 bg-destructive/10 p-3 text-foreground">
                {deleting.usedBy.length === 1 ? '1 agent decides' : `${deleting.usedBy.length} agents decide`} with it, so it cannot be deleted:{' '}
                <strong>{deleting.usedBy.join(', ')}</strong>. Move {deleting.usedBy.length === 1 ? 'it' : 'them'} to another profile first.
              </p>
            ) : null}
          </div>
        }
        confirmLabel="Delete profile"
        busy={del.isPending}
        disabled={!!deleting?.usedBy.length}
        onConfirm={() => {
          const name = deleting?.name;
          if (!name) return;
          del.mutate(name, {
            onSuccess: () => toast.success(`Deleted ${name}`),
            onError: (e) => setDeleteError(e),
          });
        }}
      />
    </>
  );
}

function DeleteError({ error, onDismiss }: { error: unknown; onDismiss: () => void }) {
  const agents = error instanceof ApiError && Array.isArray(error.details?.agents) ? (error.details.agents as string[]) : [];
  return (
    <div className="mb-4 grid gap-2" data-slot="delete-error">
      <ErrorNote error={error} />
      {agents.length ? (
        <p className="text-sm text-muted-foreground">
          Move {agents.length === 1 ? 'this agent' : 'these agents'} to another profile first: <strong>{agents.join(', ')}</strong>.
        </p>
      ) : null}
      <div>
        <Button variant="outline" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </div>
  );
}
