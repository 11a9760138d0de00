import type * as React from 'react';
import { cn } from '../ui/cn';
import { Input } from '../ui/input';

/** A titled group of fields in two columns, and what follows the columns. */
export const Section = ({ title, children, after }: { title: string; children: React.ReactNode; after?: React.ReactNode }) => (
  <div className="grid gap-4">
    <h3 className="text-sm font-semibold">{title}</h3>
    <div className="grid gap-4 md:grid-cols-2">{children}</div>
    {after}
  </div>
);

export const NumberInput = ({ invalid, ...p }: React.InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean; ref?: React.Ref<HTMLInputElement> }) => (
  <Input inputMode="numeric" autoComplete="off" className="w-40" aria-invalid={invalid} {...p} />
);

export const TextArea = ({
  invalid,
  className,
  ...p
}: React.TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean; ref?: React.Ref<HTMLTextAreaElement> }) => (
  <textarea
    autoComplete="off"
    spellCheck={false}
    aria-invalid={invalid}
    className={cn(
      'w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-[13px] shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive',
      className,
    )}
    {...p}
  />
);
