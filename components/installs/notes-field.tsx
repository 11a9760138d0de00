'use client';

import { Field } from '../ui/input';
import { Textarea } from '../ui/textarea';

export const NOTES_MAX = 2000;

/** Notes for the installer (stored and shown with the install), with a character counter. */
export function NotesField({ id, value, onChange, error }: { id: string; value: string; onChange: (v: string) => void; error?: string }) {
  const over = value.length > NOTES_MAX;
  return (
    <Field label="Notes (optional)" htmlFor={id} error={error ?? (over ? `Notes are at most ${NOTES_MAX} characters.` : undefined)}>
      <Textarea
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={over}
        aria-describedby={`${id}-count`}
        placeholder="e.g. why this is installed, or what changed since the last try"
      />
      <span id={`${id}-count`} className={over ? 'text-xs text-destructive' : 'text-xs text-muted-foreground'} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value.length} / {NOTES_MAX}
      </span>
    </Field>
  );
}
