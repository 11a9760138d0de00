'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { updateRuntimeSettingsAction } from '@/app/(console)/settings/actions';
import { packagesApi } from '@/lib/api/contracts/packages';
import { type RuntimeSettings as RuntimeSettingsValues, runtimeSettingsSchema as runtimeSettingsClientSchema } from '@/lib/settings/runtime-settings';
import { ApiError, get } from '../api';
import { ListField, NumberField, TextField } from '../forms/fields';
import { SettingsForm } from '../forms/settings-form';
import { SettingsFormCard } from '../forms/settings-form-card';
import { useSettingsSave } from '../forms/use-settings-save';
import { CheckField } from '../ui/input';
import { Skeleton } from '../ui/misc';
import { useCan } from '../viewer';
import { NameChips } from './name-chips';
import { Section } from './runtime-settings-fields';
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

export const runtimeSettingsKey = ['settings', 'runtime'] as const;

/** The runtime form's lists keep their slightly larger monospace text. */
const listText = 'text-[13px]';
const binaryOk = (b: string) => /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/.test(b);

/** Settings → Package sources: pip indexes, npm registry, detected binaries and update checks. */
export function RuntimeSettingsCard() {
  const can = useCan('packages.write');
  const q = useQuery({ queryKey: runtimeSettingsKey, queryFn: ({ signal }) => get(packagesApi.runtimeSettings, { signal }) });
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

  const save = useSettingsSave(updateRuntimeSettingsAction, {
    input: (patch: Partial<RuntimeSettingsValues>) => ({ body: patch }),
    queryKey: runtimeSettingsKey,
    reset: (next) => form.reset(toForm(next)),
    // The binaries list changes what the runtime check detects; the update settings what is stale.
    invalidate: ['packages'],
    saved: { what: 'Package sources', labels: LABELS },
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
        <SettingsForm
          label="Package sources"
          testId="runtime-settings-form"
          can={can}
          save={save}
          valid={isValid}
          changed={changedKeys.map((k) => LABELS[k])}
          onSubmit={onSubmit}
          discardDisabled={!form.formState.isDirty}
          onDiscard={() => form.reset(toForm(stored))}
          className="gap-6"
        >
          <Section title="Python (pip)">
            <TextField
              label="pip index URL"
              id="rs-pip-index"
              error={errors.pipIndexUrl?.message}
              hint="pip --index-url. Empty: pip’s own configuration (PyPI)."
              placeholder="e.g. https://pypi.org/simple"
              {...form.register('pipIndexUrl')}
            />
            <ListField
              label="Extra index URLs"
              id="rs-pip-extra"
              error={errors.pipExtraIndexUrls?.message}
              hint="pip --extra-index-url, one per line, in order (up to 10)."
              placeholder="e.g. https://download.pytorch.org/whl/cpu"
              className={listText}
              {...form.register('pipExtraIndexUrls')}
            />
            <ListField
              label="Find-links"
              id="rs-pip-find"
              error={errors.pipFindLinks?.message}
              hint="pip --find-links: local wheel folders (absolute paths) or pages of links, one per line."
              placeholder="e.g. /srv/wheels"
              className={listText}
              {...form.register('pipFindLinks')}
            />
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
            <TextField
              label="npm registry URL"
              id="rs-npm-registry"
              error={errors.npmRegistry?.message}
              hint="Empty: https://registry.npmjs.org/"
              placeholder="e.g. https://registry.npmjs.org/"
              {...form.register('npmRegistry')}
            />
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
            <TextField
              label="Binaries to detect"
              id="rs-binaries"
              error={errors.binaries?.message}
              hint="Programs skills commonly need, separated by commas or spaces; shown on the Runtime page."
              aria-describedby="rs-binaries-chips"
              {...form.register('binaries')}
            />
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
            <NumberField
              label="Update TTL (minutes)"
              id="rs-ttl"
              error={errors.updateTtlMinutes?.message}
              hint="Results older than this are re-checked when the updates list is read (1 to 10080)."
              {...form.register('updateTtlMinutes')}
            />
            <NumberField
              label="Scheduled check interval (hours)"
              id="rs-interval"
              error={errors.updateCheckIntervalHours?.message}
              hint="0 turns the scheduled check off (up to 168)."
              {...form.register('updateCheckIntervalHours')}
            />
          </Section>
        </SettingsForm>
      )}
    </SettingsFormCard>
  );
}
