'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { Save } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { policyApi } from '@/lib/api/contracts/policy';
import { createProfileInput } from '@/lib/api/policy-schemas';
import { ApiError, applyIssues, get } from '../api';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { Field, Input } from '../ui/input';
import { ErrorNote, Tip } from '../ui/misc';
import type { DenyGroupInfo } from './deny-groups-field';
import { ownModes } from './deny-groups-field';
import { InlineTester } from './inline-tester';
import { ConflictNote } from './profile-conflict';
import { type ProfileView, useCreateProfile, useUpdateProfile } from './queries';
import { ReplayPanel } from './replay-panel';
import { type ProfileFormValues, RulesFields } from './rules-fields';

type Mode = 'new' | 'edit' | 'preset';

function initial(mode: Mode, p: ProfileView): ProfileFormValues {
  if (mode === 'new') return { name: '', description: p.builtin ? `Based on ${p.name}` : p.description, rules: structuredClone(p.rules) };
  return { name: p.name, description: p.description, rules: structuredClone(p.rules) };
}

/** The editor's form: validated as you type by the schema the server parses with; saved with its revision. */
export function ProfileForm({
  mode,
  stored,
  groups,
  canWrite,
  why,
}: {
  mode: Mode;
  stored: ProfileView;
  groups: DenyGroupInfo[] | undefined;
  canWrite: boolean;
  why?: string;
}) {
  const router = useRouter();
  const form = useForm<ProfileFormValues>({
    resolver: zodResolver(createProfileInput as never) as never,
    mode: 'onChange',
    defaultValues: initial(mode, stored),
  });
  const create = useCreateProfile();
  const update = useUpdateProfile();
  const [error, setError] = useState<unknown>(null);
  const [conflict, setConflict] = useState<ProfileView | null>(null);
  // The version these edits start from: a background refetch never replaces what is being edited.
  const [base, setBase] = useState(stored);
  const pending = create.isPending || update.isPending;
  const errors = form.formState.errors;
  const allowed = form.watch('rules.allowedCommands');
  const rulesNow = form.watch('rules');
  const rulesValid = Object.keys(errors.rules ?? {}).length === 0;

  const clean = (v: ProfileFormValues): ProfileFormValues => ({
    ...v,
    rules: { ...v.rules, denyGroups: groups ? ownModes(v.rules.denyGroups, groups) : v.rules.denyGroups },
  });

  async function save(values: ProfileFormValues, revision: number) {
    setError(null);
    setConflict(null);
    const v = clean(values);
    try {
      if (mode === 'new') {
        const out = await create.mutateAsync({ name: v.name, description: v.description, rules: v.rules });
        toast.success(`Created ${out.name}`);
        router.replace(`/policy/profiles/${encodeURIComponent(out.name)}`);
      } else {
        const out = await update.mutateAsync({ name: stored.name, patch: { revision, description: v.description, rules: v.rules } });
        toast.success(`Saved ${out.name}`, { description: `Revision ${out.revision}` });
        load(out);
      }
    } catch (e) {
      if (mode === 'edit' && e instanceof ApiError && e.status === 409) {
        const latest = await get(policyApi.getProfile, { params: { name: stored.name } }).catch(() => null);
        if (latest && latest.revision !== revision) return setConflict(latest);
      }
      if (!applyIssues(e, form.setError as never)) setError(e);
    }
  }

  function load(p: ProfileView) {
    setBase(p);
    setConflict(null);
    form.reset(initial('edit', p));
  }

  const onSubmit = form.handleSubmit((values) => save(values, base.revision));
  return (
    <form onSubmit={onSubmit} className="grid gap-4" aria-label="Profile" noValidate>
      <Card>
        <CardContent className="grid gap-3 pt-5 sm:grid-cols-[16rem_1fr]">
          <Field
            label="Name"
            htmlFor="profile-name"
            error={errors.name?.message}
            hint={mode === 'new' ? 'Lower-case letters, digits, - and _.' : 'A name cannot change.'}
          >
            <Input
              id="profile-name"
              className="font-mono"
              autoComplete="off"
              readOnly={mode !== 'new'}
              disabled={!canWrite && mode === 'new'}
              aria-invalid={!!errors.name}
              {...form.register('name')}
            />
          </Field>
          <Field
            label="Description"
            htmlFor="profile-description"
            error={errors.description?.message}
            hint={mode === 'new' ? undefined : base.usedBy.length ? `Used by ${base.usedBy.join(', ')}.` : 'No agent uses it yet.'}
          >
            <Input id="profile-description" disabled={!canWrite} {...form.register('description')} />
          </Field>
        </CardContent>
      </Card>
      <fieldset disabled={!canWrite} className="grid gap-4">
        <RulesFields control={form.control} register={form.register} errors={errors} groups={groups} disabled={!canWrite} allowed={allowed} />
      </fieldset>
      {conflict ? (
        <ConflictNote
          theirs={conflict}
          busy={pending}
          onLoadTheirs={() => load(conflict)}
          onOverwrite={() => void form.handleSubmit((values) => save(values, conflict.revision))()}
        />
      ) : null}
      <ErrorNote error={error} />
      {mode !== 'preset' ? (
        <div className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center justify-end gap-3 border-t bg-background/95 px-1 py-3 backdrop-blur">
          <span className="mr-auto text-xs text-muted-foreground" aria-live="polite">
            {form.formState.isDirty ? 'Unsaved changes' : mode === 'edit' ? `Saved · revision ${base.revision}` : ''}
          </span>
          <Tip content={canWrite ? undefined : why}>
            <Button type="submit" disabled={!canWrite || pending}>
              <Save aria-hidden /> {pending ? 'Saving…' : mode === 'new' ? 'Create profile' : 'Save profile'}
            </Button>
          </Tip>
        </div>
      ) : null}
      <InlineTester rules={clean({ ...form.getValues(), rules: rulesNow }).rules} valid={rulesValid} />
      <ReplayPanel current={stored.name} proposed={() => clean(form.getValues()).rules} valid={rulesValid} />
    </form>
  );
}
