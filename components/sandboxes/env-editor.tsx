'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { setConfigEnvInput } from '@/lib/sandbox/env/rules';
import { applyIssues } from '../api';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Confirm } from '../ui/dialog';
import { Field, Input } from '../ui/input';
import { ErrorNote, Skeleton } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useConfigEnv, useSetConfigEnv, useUnsetConfigEnv } from './queries';

/** The config-level env: names and when they were set; values are write-only. */
export function EnvEditor({ configId, canWrite }: { configId: string; canWrite: boolean }) {
  const list = useConfigEnv(configId);
  const set = useSetConfigEnv();
  const unset = useUnsetConfigEnv();
  const [removing, setRemoving] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const form = useForm<{ name: string; value: string }>({
    resolver: zodResolver(setConfigEnvInput as never) as never,
    mode: 'onChange',
    defaultValues: { name: '', value: '' },
  });

  const onAdd = form.handleSubmit(async (v) => {
    setError(null);
    try {
      await set.mutateAsync({ id: configId, ...v });
      toast.success(`${v.name} set`);
      form.reset({ name: '', value: '' });
      await list.refetch();
    } catch (e) {
      if (!applyIssues(e, form.setError as never)) setError(e);
    }
  });

  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        Injected into every sandbox of this config and readable by every script in it: keep credentials scripts must not read out of here.
      </p>
      {list.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : list.error ? (
        <ErrorNote error={list.error} />
      ) : list.data.items.length === 0 ? (
        <p className="text-sm">No env vars yet.</p>
      ) : (
        <ul className="grid gap-1">
          {list.data.items.map((v) => (
            <li key={v.name} className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5 text-sm">
              <span className="font-mono">{v.name}</span>
              <span className="flex items-center gap-2 text-xs text-muted-foreground">
                <Badge variant="secondary">configured</Badge>
                <RelativeTime iso={v.updatedAt} /> by {v.updatedBy}
                <Button type="button" size="icon" variant="ghost" aria-label={`Remove ${v.name}`} disabled={!canWrite} onClick={() => setRemoving(v.name)}>
                  <Trash2 aria-hidden />
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {canWrite ? (
        <div className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          <Field label="Name" htmlFor="env-name" error={form.formState.errors.name?.message}>
            <Input id="env-name" autoComplete="off" className="font-mono" aria-invalid={!!form.formState.errors.name} {...form.register('name')} />
          </Field>
          <Field label="Value" htmlFor="env-value" error={form.formState.errors.value?.message}>
            <Input id="env-value" type="password" autoComplete="new-password" {...form.register('value')} />
          </Field>
          <Button type="button" onClick={onAdd} disabled={set.isPending}>
            {set.isPending ? 'Setting…' : 'Set'}
          </Button>
        </div>
      ) : null}
      <ErrorNote error={error} />
      <Confirm
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={`Remove ${removing}?`}
        description={`New sandboxes of this config no longer get ${removing}; personal values of the same name still apply. The stored value is deleted and cannot be shown again.`}
        confirmLabel="Remove"
        busy={unset.isPending}
        onConfirm={() => {
          const name = removing;
          if (!name) return;
          unset.mutate(
            { id: configId, name },
            {
              onSuccess: () => void list.refetch(),
              onError: (e) => toast.error(`Could not remove ${name}`, { description: e.message }),
              onSettled: () => setRemoving(null),
            },
          );
        }}
      />
    </div>
  );
}
