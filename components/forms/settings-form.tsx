'use client';

import type * as React from 'react';
import { cn } from '../ui/cn';
import { SettingsSaveBar, saveBlockedReason } from './save-bar';
import { SettingsFormNotes } from './settings-form-card';

type Can = { allowed: boolean; why?: string };

/**
 * A settings form: the read-only note naming the role needed, a failed save that is not about one field,
 * the fields (disabled while read only or saving), and the save bar with what is unsaved, Discard and Save.
 * Save is refused (and says why) when the viewer may not write, a field is invalid, or nothing changed.
 */
export type SettingsFormProps = {
  /** The form's accessible name. */
  label: string;
  testId: string;
  can: Can;
  save: { error: unknown; isPending: boolean };
  valid: boolean;
  /** Labels of the fields that differ from what is stored. */
  changed: string[];
  /** Called on submit when Save is not blocked. */
  onSave?: () => void;
  /** Takes the submit event instead of `onSave` (a react-hook-form `handleSubmit`, which validates and focuses the first error). */
  onSubmit?: React.FormEventHandler<HTMLFormElement>;
  /** Default: nothing changed and every field valid. */
  discardDisabled?: boolean;
  onDiscard: () => void;
  /** Classes of the fieldset that holds the fields (their grid). */
  className?: string;
  notesClassName?: string;
  children: React.ReactNode;
};

export function SettingsForm({
  label,
  testId,
  can,
  save,
  valid,
  changed,
  onSave,
  onSubmit,
  discardDisabled,
  onDiscard,
  className,
  notesClassName,
  children,
}: SettingsFormProps) {
  const disabled = !can.allowed || save.isPending;
  const blocked = saveBlockedReason(can, valid, changed.length);
  return (
    <form
      noValidate
      aria-label={label}
      data-testid={testId}
      onSubmit={
        onSubmit ??
        ((e) => {
          e.preventDefault();
          if (!blocked) onSave?.();
        })
      }
    >
      <fieldset disabled={disabled} className={cn('grid', className)}>
        <SettingsFormNotes can={can} saveError={save.error} className={notesClassName} />
        {children}
      </fieldset>
      <SettingsSaveBar
        valid={valid}
        changed={changed}
        disabled={disabled}
        discardDisabled={discardDisabled ?? (!changed.length && valid)}
        onDiscard={onDiscard}
        blocked={blocked}
        saving={save.isPending}
      />
    </form>
  );
}
