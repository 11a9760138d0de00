'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { updateRuntimeSettingsAction } from '@/app/(console)/settings/actions';
import { type RuntimeSettings as RuntimeSettingsValues, runtimeSettingsSchema as runtimeSettingsClientSchema } from '@/lib/settings/runtime-settings';
import { ApiError, api } from '../api';
import { CheckField, Field, Input } from '../ui/input';
import { Skeleton } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { NameChips } from './name-chips';
import { NumberInput, Section, TextArea } from './runtime-settings-fields';
import {
  BLANK,
  changedFields,
  type FormValues,
  fromForm,
  issueMessage,
  LABELS,
  type RuntimeSettingsKey,
  resolver,
  splitBinaries,
  toForm,
} from './runtime-settings-form';
import { SettingsSaveBar, saveBlockedReason } from '../forms/save-bar';
import { SettingsFormCard, SettingsFormNotes } from '../forms/settings-form-card';

export const runtimeSettingsKey = ['settings', 'runtime'] as const;

const binaryOk = (b: string) => /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/.test(b);

/** Settings → Package sources: pip indexes, npm registry, detected binaries and update checks. */
export function RuntimeSettingsCard() {
  const qc = useQueryClient();
  const can = useCan('packages.write');
  const q = useQuery({ queryKey: runtimeSettingsKey, queryFn: ({ signal }) => api<RuntimeSettingsValues>('/api/v1/settings/runtime', { signal }) });
  const form = useForm<FormValues>({ resolver, mode: 'onChange', defaultValues: BLANK });
  const { errors } = form.formState;
  const stored = q.data;

  // Load (and reload after a save) what the server holds, unless the user is mid-edit.
  useEffect(() => {
    if (stored && !form.formState.isDirty) form.reset(toForm(stored));
  }, [stored, form]);

  const values = form.watch();
  const parsed = useMemo(() => runtimeSettingsClientSchema.safeParse(fromForm(values)), [values]);
  const isValid = parsed.success;
  const changes = stored && parsed.success ? changedFields(stored, parsed.data) : {};
  const changedKeys = Object.keys(changes) as RuntimeSettingsKey[];

  const save = useOperation(updateRuntimeSettingsAction, {
    input: (patch: Partial<RuntimeSettingsValues>) => ({ body: patch }),
    onSuccess: (next, patch) => {
      qc.setQueryData(runtimeSettingsKey, next);
      form.reset(toForm(next));
      // The binaries list changes what the runtime check detects; the update settings what is stale.
      void qc.invalidateQueries({ queryKey: ['packages'] });
      const names = Object.keys(patch).map((k) => LABELS[k as RuntimeSettingsKey] ?? k);
      toast.success('Package sources saved', { description: `Changed: ${names.join(', ')}.` });
    },
    onError: (e) => {
      if (e instanceof ApiError && e.issues.length) {
        const raw = fromForm(form.getValues());
        for (const i of e.issues) {
          const path = i.path.split('.');
          const field = path[0] as keyof FormValues;
          if (field in LABELS) form.setError(field, { type: 'server', message: issueMessage(path, i.message, raw) });
        }
      }
    },
  });

  const onSubmit = form.handleSubmit(() => {
    if (!changedKeys.length || !can.allowed) return;
    save.mutate(changes);
  });

  const disabled = !can.allowed || save.isPending;
  const saveBlocked = saveBlockedReason(can, isValid, changedKeys.length);

  return (
    <SettingsFormCard
      title="Package sources"
      description="Where pip and npm install from, which programs the runtime check looks for, and how often updates are checked."
      query={q}
      value={stored}
      loadingLabel="Loading package sources"
      skeleton={Array.from({ length: 6 }, (_, n) => (
        <div key={n} className="grid gap-1.5">
          <Skeleton className="h-3 w-28" />
          <Skeleton className="h-9 w-full" />
        </div>
      ))}
    >
      {(stored) => (
        <form onSubmit={onSubmit} noValidate aria-label="Package sources" data-testid="runtime-settings-form">
          <fieldset disabled={disabled} className="grid gap-6">
            <SettingsFormNotes can={can} saveError={save.error} />

            <Section title="Python (pip)">
              <Field
                label="pip index URL"
                htmlFor="rs-pip-index"
                error={errors.pipIndexUrl?.message}
                hint="pip --index-url. Empty: pip’s own configuration (PyPI)."
              >
                <Input
                  id="rs-pip-index"
                  placeholder="e.g. https://pypi.org/simple"
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={!!errors.pipIndexUrl}
                  {...form.register('pipIndexUrl')}
                />
              </Field>
              <Field
                label="Extra index URLs"
                htmlFor="rs-pip-extra"
                error={errors.pipExtraIndexUrls?.message}
                hint="pip --extra-index-url, one per line, in order (up to 10)."
              >
                <TextArea
                  id="rs-pip-extra"
                  rows={3}
                  placeholder="e.g. https://download.pytorch.org/whl/cpu"
                  invalid={!!errors.pipExtraIndexUrls}
                  {...form.register('pipExtraIndexUrls')}
                />
              </Field>
              <Field
                label="Find-links"
                htmlFor="rs-pip-find"
                error={errors.pipFindLinks?.message}
                hint="pip --find-links: local wheel folders (absolute paths) or pages of links, one per line."
              >
                <TextArea id="rs-pip-find" rows={3} placeholder="e.g. /srv/wheels" invalid={!!errors.pipFindLinks} {...form.register('pipFindLinks')} />
              </Field>
              <div className="grid content-start gap-1.5 md:pt-6">
                <CheckField
                  id="rs-pip-no-index"
                  label="Only use find-links (no index)"
                  hint="pip --no-index, for hosts without internet access."
                  {...form.register('pipNoIndex')}
                />
              </div>
            </Section>

            <Section title="Node (npm)">
              <Field label="npm registry URL" htmlFor="rs-npm-registry" error={errors.npmRegistry?.message} hint="Empty: https://registry.npmjs.org/">
                <Input
                  id="rs-npm-registry"
                  placeholder="e.g. https://registry.npmjs.org/"
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={!!errors.npmRegistry}
                  {...form.register('npmRegistry')}
                />
              </Field>
            </Section>

            <Section
              title="Runtime check and system packages"
              after={
                <NameChips
                  id="rs-binaries-chips"
                  label="Binaries that will be detected"
                  names={splitBinaries(values.binaries)}
                  valid={binaryOk}
                  invalidTitle="Not a valid program name"
                  empty="No binaries: the runtime check shows only the languages."
                />
              }
            >
              <Field
                label="Binaries to detect"
                htmlFor="rs-binaries"
                error={errors.binaries?.message}
                hint="Programs skills commonly need, separated by commas or spaces; shown on the Runtime page."
              >
                <Input
                  id="rs-binaries"
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={!!errors.binaries}
                  aria-describedby="rs-binaries-chips"
                  {...form.register('binaries')}
                />
              </Field>
              <div className="grid content-start gap-1.5 md:pt-6">
                <CheckField
                  id="rs-apt-update"
                  label="apt auto-update"
                  hint="Run apt-get update before an install when the package lists are stale and the package is not found."
                  {...form.register('aptAutoUpdate')}
                />
              </div>
            </Section>

            <Section title="Update checks">
              <Field
                label="Update TTL (minutes)"
                htmlFor="rs-ttl"
                error={errors.updateTtlMinutes?.message}
                hint="Results older than this are re-checked when the updates list is read (1 to 10080)."
              >
                <NumberInput id="rs-ttl" invalid={!!errors.updateTtlMinutes} {...form.register('updateTtlMinutes')} />
              </Field>
              <Field
                label="Scheduled check interval (hours)"
                htmlFor="rs-interval"
                error={errors.updateCheckIntervalHours?.message}
                hint="0 turns the scheduled check off (up to 168)."
              >
                <NumberInput id="rs-interval" invalid={!!errors.updateCheckIntervalHours} {...form.register('updateCheckIntervalHours')} />
              </Field>
            </Section>
          </fieldset>

          <SettingsSaveBar
            valid={isValid}
            changed={changedKeys.map((k) => LABELS[k])}
            disabled={disabled}
            discardDisabled={!form.formState.isDirty}
            onDiscard={() => form.reset(toForm(stored))}
            blocked={saveBlocked}
            saving={save.isPending}
          />
        </form>
      )}
    </SettingsFormCard>
  );
}
