'use client';

import type * as React from 'react';
import { SettingsForm, type SettingsFormProps } from './settings-form';
import { SettingsFormCard } from './settings-form-card';
import { draftFields } from './use-settings-draft';

type Draft<S, F> = { form: F | null; set: <K extends keyof F>(k: K, v: F[K]) => void; reset: (s: S) => void };

/**
 * A settings card whose form edits a draft (useSettingsDraft): the card with its loading and failed states,
 * then the settings form with the draft's fields bound (`f`). Discard goes back to what is stored unless
 * `onDiscard` says otherwise.
 */
export function DraftSettingsCard<S, F extends object>({
  title,
  description,
  query,
  loadingLabel,
  stored,
  draft,
  errors,
  onDiscard,
  children,
  ...form
}: Omit<SettingsFormProps, 'children' | 'onDiscard'> & {
  title: string;
  description: React.ReactNode;
  query: { error: unknown; data: unknown; refetch: () => unknown };
  loadingLabel: string;
  stored: S | undefined;
  draft: Draft<S, F>;
  errors: Record<string, string>;
  onDiscard?: (stored: S) => void;
  children: (f: ReturnType<typeof draftFields<F>>, values: { stored: S; form: F }) => React.ReactNode;
}) {
  return (
    <SettingsFormCard
      title={title}
      description={description}
      query={query}
      value={stored && draft.form ? { stored, form: draft.form } : null}
      loadingLabel={loadingLabel}
    >
      {(values) => (
        <SettingsForm {...form} onDiscard={() => (onDiscard ?? draft.reset)(values.stored)}>
          {children(draftFields(values.form, draft.set, errors), values)}
        </SettingsForm>
      )}
    </SettingsFormCard>
  );
}
