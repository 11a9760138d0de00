'use client';

import type * as React from 'react';
import { cn } from '../ui/cn';
import { Field, Input } from '../ui/input';
import { Textarea } from '../ui/textarea';

type Labelled = { id: string; label: string; hint?: string; error?: string };
type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'id'> & { ref?: React.Ref<HTMLInputElement> };
type TextareaProps = Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & { ref?: React.Ref<HTMLTextAreaElement> };

/**
 * A labelled one-line text field with its hint, or its error in place of the hint (the input is then marked invalid).
 * Takes a controlled `value`/`onChange` or a react-hook-form `register(…)` spread; no autocomplete or spell check.
 */
export function TextField({ id, label, hint, error, ...input }: Labelled & InputProps) {
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint}>
      <Input id={id} autoComplete="off" spellCheck={false} aria-invalid={!!error} {...input} />
    </Field>
  );
}

/** A labelled whole-number field, typed as text with a numeric keyboard so what was typed can be shown back with its error. */
export function NumberField({ className, ...props }: Labelled & InputProps) {
  return <TextField inputMode="numeric" className={cn('w-40', className)} {...props} />;
}

/** A labelled multi-line field for lists (one item a line, or separated by commas) in a monospace face. */
export function ListField({ id, label, hint, error, className, rows = 3, ...textarea }: Labelled & TextareaProps) {
  return (
    <Field label={label} htmlFor={id} error={error} hint={hint}>
      <Textarea id={id} rows={rows} autoComplete="off" spellCheck={false} aria-invalid={!!error} className={cn('font-mono text-xs', className)} {...textarea} />
    </Field>
  );
}
