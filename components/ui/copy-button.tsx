'use client';

import { Check, Copy } from 'lucide-react';
import * as React from 'react';
import { toast } from 'sonner';
import { Button, type ButtonProps } from './button';

/** Puts text on the clipboard; falls back to a hidden textarea where the Clipboard API is refused. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    if (!ok) throw new Error('The browser refused clipboard access.');
  }
}

/**
 * An icon button that copies a value and briefly shows a check mark. `label` is its accessible
 * name; `tooltip` (the title) defaults to it.
 */
export function CopyButton({
  value,
  label,
  tooltip,
  className,
  ...props
}: { value: string | (() => string); label: string; tooltip?: string } & Omit<ButtonProps, 'value' | 'onClick'>) {
  const [done, setDone] = React.useState(false);
  React.useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(false), 1500);
    return () => clearTimeout(t);
  }, [done]);
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      aria-label={label}
      title={tooltip ?? label}
      className={className}
      onClick={() =>
        copyText(typeof value === 'function' ? value() : value).then(
          () => setDone(true),
          (e: Error) => toast.error('Could not copy', { description: e.message }),
        )
      }
      {...props}
    >
      {done ? <Check aria-hidden className="text-success" /> : <Copy aria-hidden />}
    </Button>
  );
}
