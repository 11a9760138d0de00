'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import { updateTerminalSettingsAction } from '@/app/(console)/settings/actions';
import { terminalsApi } from '@/lib/api/contracts/terminals';
import { type TerminalSettings, type terminalSettingsPatch, terminalSettingsSchema } from '@/lib/settings/terminal-settings';
import { get } from '../api';
import { DraftSettingsCard } from '../forms/draft-settings-card';
import { NumberField } from '../forms/fields';
import { useSettingsDraft } from '../forms/use-settings-draft';
import { useSettingsSave } from '../forms/use-settings-save';
import { CheckField } from '../ui/input';
import { useCan } from '../viewer';
import { fromForm, issueText, KEYS, type Key, LABELS, terminalSettingsKey, toForm } from './terminal-settings-form';

/** Settings → Terminal: how many terminals may be open, the re-attach grace, the access re-check, and transcript recording. */
export function TerminalSettingsCard() {
  const can = useCan('terminals.manage');
  const q = useQuery({ queryKey: terminalSettingsKey, queryFn: ({ signal }) => get(terminalsApi.terminalSettings, { signal }) });
  const stored = q.data;
  const draft = useSettingsDraft(stored, toForm);
  const { form } = draft;

  const parsed = useMemo(() => (form ? terminalSettingsSchema.safeParse(fromForm(form)) : null), [form]);
  const errors: Record<string, string> = { ...draft.serverIssues };
  if (form && parsed && !parsed.success)
    for (const i of parsed.error.issues) errors[String(i.path[0])] ??= issueText(String(i.path[0]), i.message, fromForm(form));
  const patch: Partial<TerminalSettings> = {};
  if (stored && parsed?.success) for (const k of KEYS) if (stored[k] !== parsed.data[k]) Object.assign(patch, { [k]: parsed.data[k] });
  const valid = !!parsed?.success;
  const changed = Object.keys(patch) as Key[];

  const save = useSettingsSave(updateTerminalSettingsAction, {
    input: (body: z.input<typeof terminalSettingsPatch>) => ({ body }),
    queryKey: terminalSettingsKey,
    reset: draft.reset,
    onError: draft.onSaveError,
    saved: { what: 'Terminal settings', labels: LABELS, after: 'Limits apply to terminals opened from now on.' },
  });

  return (
    <DraftSettingsCard
      title="Terminal"
      description="The browser terminal into sandboxes: how many may be open, how long a dropped one waits to be re-attached, how often its user’s access is checked again, and whether sessions are recorded."
      query={q}
      loadingLabel="Loading terminal settings"
      stored={stored}
      draft={draft}
      errors={errors}
      label="Terminal settings"
      testId="terminal-settings-form"
      can={can}
      save={save}
      valid={valid}
      changed={changed.map((k) => LABELS[k])}
      onSave={() => save.mutate(patch)}
      className="gap-4 md:grid-cols-2"
      notesClassName="md:col-span-2"
    >
      {(f) => (
        <>
          <NumberField label="Terminals per user" id="term-per-user" hint="Open at once, across all sandboxes (1 to 50)." {...f.text('maxPerUser')} />
          <NumberField label="Terminals per sandbox" id="term-per-sandbox" hint="Open at once, across all users (1 to 50)." {...f.text('maxPerSandbox')} />
          <NumberField
            label="Re-attach grace (seconds)"
            id="term-grace"
            hint="How long a shell whose browser dropped keeps running, waiting for it to come back (0 to 3600)."
            {...f.text('graceSeconds')}
          />
          <NumberField
            label="Access re-check (seconds)"
            id="term-recheck"
            hint="How often an open terminal checks that its user may still hold it; a demoted or disabled user is cut off (5 to 600)."
            {...f.text('recheckSeconds')}
          />
          <CheckField
            id="term-record"
            wrapperClassName="md:pt-6"
            label="Record transcripts"
            hint="All output of terminals opened from now on (what was typed shows only where the shell echoed it, so passwords stay out), downloadable by admins from Terminal sessions."
            {...f.check('recordTranscripts')}
          />
          <NumberField
            label="Keep transcripts (days)"
            id="term-retention"
            hint="Transcripts last written longer ago are deleted (1 to 3650)."
            {...f.text('transcriptRetentionDays')}
          />
          <NumberField
            label="Transcript space (MiB)"
            id="term-quota"
            hint="All transcripts together; the oldest ended ones are deleted to make room for a new session (16 to 1048576)."
            {...f.text('transcriptQuotaMb')}
          />
        </>
      )}
    </DraftSettingsCard>
  );
}
