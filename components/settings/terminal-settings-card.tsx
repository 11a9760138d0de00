'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import { updateTerminalSettingsAction } from '@/app/(console)/settings/actions';
import { type TerminalSettings, type terminalSettingsPatch, terminalSettingsSchema } from '@/lib/settings/terminal-settings';
import { api } from '../api';
import { CheckField, Field, Input } from '../ui/input';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { SettingsSaveBar, saveBlockedReason } from './save-bar';
import { SettingsFormCard, SettingsFormNotes } from './settings-card';
import { type Form, fromForm, issueText, KEYS, type Key, LABELS, terminalSettingsKey, toForm } from './terminal-settings-form';
import { useSettingsDraft } from './use-settings-draft';

type TextKey = Exclude<keyof Form, 'recordTranscripts'>;

/** Settings → Terminal: how many terminals may be open, the re-attach grace, the access re-check, and transcript recording. */
export function TerminalSettingsCard() {
  const qc = useQueryClient();
  const can = useCan('terminals.manage');
  const q = useQuery({ queryKey: terminalSettingsKey, queryFn: ({ signal }) => api<TerminalSettings>('/api/v1/settings/terminal', { signal }) });
  const stored = q.data;
  const draft = useSettingsDraft(stored, toForm);
  const { form, set } = draft;

  const parsed = useMemo(() => (form ? terminalSettingsSchema.safeParse(fromForm(form)) : null), [form]);
  const errors: Record<string, string> = { ...draft.serverIssues };
  if (form && parsed && !parsed.success)
    for (const i of parsed.error.issues) errors[String(i.path[0])] ??= issueText(String(i.path[0]), i.message, fromForm(form));
  const patch: Partial<TerminalSettings> = {};
  if (stored && parsed?.success) for (const k of KEYS) if (stored[k] !== parsed.data[k]) Object.assign(patch, { [k]: parsed.data[k] });
  const valid = !!parsed?.success;
  const changed = Object.keys(patch) as Key[];

  const save = useOperation(updateTerminalSettingsAction, {
    input: (body: z.input<typeof terminalSettingsPatch>) => ({ body }),
    onSuccess: (next, body) => {
      qc.setQueryData(terminalSettingsKey, next);
      draft.reset(next);
      toast.success('Terminal settings saved', {
        description: `Changed: ${Object.keys(body)
          .map((k) => LABELS[k as Key] ?? k)
          .join(', ')}. Limits apply to terminals opened from now on.`,
      });
    },
    onError: draft.onSaveError,
  });

  const disabled = !can.allowed || save.isPending;
  const blocked = saveBlockedReason(can, valid, changed.length);
  const input = (f: Form, k: TextKey, id: string) => (
    <Input id={id} value={f[k]} onChange={(e) => set(k, e.target.value)} aria-invalid={!!errors[k]} inputMode="numeric" className="w-40" />
  );

  return (
    <SettingsFormCard
      title="Terminal"
      description="The browser terminal into sandboxes: how many may be open, how long a dropped one waits to be re-attached, how often its user’s access is checked again, and whether sessions are recorded."
      query={q}
      value={stored && form ? { stored, form } : null}
      loadingLabel="Loading terminal settings"
    >
      {({ stored, form }) => (
        <form
          noValidate
          aria-label="Terminal settings"
          data-testid="terminal-settings-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (!blocked) save.mutate(patch);
          }}
        >
          <fieldset disabled={disabled} className="grid gap-4 md:grid-cols-2">
            <SettingsFormNotes can={can} saveError={save.error} className="md:col-span-2" />
            <Field label="Terminals per user" htmlFor="term-per-user" error={errors.maxPerUser} hint="Open at once, across all sandboxes (1 to 50).">
              {input(form, 'maxPerUser', 'term-per-user')}
            </Field>
            <Field label="Terminals per sandbox" htmlFor="term-per-sandbox" error={errors.maxPerSandbox} hint="Open at once, across all users (1 to 50).">
              {input(form, 'maxPerSandbox', 'term-per-sandbox')}
            </Field>
            <Field
              label="Re-attach grace (seconds)"
              htmlFor="term-grace"
              error={errors.graceSeconds}
              hint="How long a shell whose browser dropped keeps running, waiting for it to come back (0 to 3600)."
            >
              {input(form, 'graceSeconds', 'term-grace')}
            </Field>
            <Field
              label="Access re-check (seconds)"
              htmlFor="term-recheck"
              error={errors.recheckSeconds}
              hint="How often an open terminal checks that its user may still hold it; a demoted or disabled user is cut off (5 to 600)."
            >
              {input(form, 'recheckSeconds', 'term-recheck')}
            </Field>
            <CheckField
              id="term-record"
              wrapperClassName="md:pt-6"
              label="Record transcripts"
              hint="All output of terminals opened from now on (what was typed shows only where the shell echoed it, so passwords stay out), downloadable by admins from Terminal sessions."
              checked={form.recordTranscripts}
              onChange={(e) => set('recordTranscripts', e.target.checked)}
            />
            <Field
              label="Keep transcripts (days)"
              htmlFor="term-retention"
              error={errors.transcriptRetentionDays}
              hint="Transcripts last written longer ago are deleted (1 to 3650)."
            >
              {input(form, 'transcriptRetentionDays', 'term-retention')}
            </Field>
            <Field
              label="Transcript space (MiB)"
              htmlFor="term-quota"
              error={errors.transcriptQuotaMb}
              hint="All transcripts together; the oldest ended ones are deleted to make room for a new session (16 to 1048576)."
            >
              {input(form, 'transcriptQuotaMb', 'term-quota')}
            </Field>
          </fieldset>
          <SettingsSaveBar
            valid={valid}
            changed={changed.map((k) => LABELS[k])}
            disabled={disabled}
            discardDisabled={!changed.length && valid}
            onDiscard={() => draft.reset(stored)}
            blocked={blocked}
            saving={save.isPending}
          />
        </form>
      )}
    </SettingsFormCard>
  );
}
