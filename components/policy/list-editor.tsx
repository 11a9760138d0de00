'use client';

import { Plus, X } from 'lucide-react';
import { useState } from 'react';
import type { z } from 'zod';
import { Button } from '../ui/button';
import { Input } from '../ui/input';

/**
 * A list of short strings as removable chips, with an input that adds one on Enter or with the
 * button. Each new entry is checked with `entry` (the element schema the server uses) before it is added.
 */
export function ListEditor({
  id,
  label,
  values,
  onChange,
  entry,
  placeholder,
  disabled,
  max,
  error,
}: {
  id: string;
  label: string;
  values: string[];
  onChange: (v: string[]) => void;
  entry: z.ZodType<string>;
  placeholder: string;
  disabled?: boolean;
  max: number;
  error?: string;
}) {
  const [text, setText] = useState('');
  const [issue, setIssue] = useState<string | null>(null);
  function add() {
    const r = entry.safeParse(text);
    if (!r.success) return setIssue(r.error.issues[0]?.message ?? 'Not a valid entry');
    if (values.includes(r.data)) return setIssue(`${r.data} is already in the list`);
    if (values.length >= max) return setIssue(`At most ${max} entries`);
    onChange([...values, r.data]);
    setText('');
    setIssue(null);
  }
  const shown = issue ?? error;
  return (
    <div className="grid gap-2">
      <ul className="flex flex-wrap gap-1.5" aria-label={label}>
        {values.length === 0 ? <li className="text-xs text-muted-foreground">Empty</li> : null}
        {values.map((v) => (
          <li key={v} data-entry={v} className="inline-flex items-center gap-1 rounded-md border bg-muted/50 py-0.5 pl-2 pr-0.5 font-mono text-xs">
            {v}
            <button
              type="button"
              disabled={disabled}
              onClick={() => onChange(values.filter((x) => x !== v))}
              className="rounded p-0.5 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50"
              aria-label={`Remove ${v}`}
            >
              <X aria-hidden className="size-3" />
            </button>
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Input
          id={id}
          value={text}
          disabled={disabled}
          placeholder={placeholder}
          aria-label={`New entry for ${label.toLowerCase()}`}
          aria-invalid={!!shown}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          onChange={(e) => {
            setText(e.target.value);
            setIssue(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              if (text.trim()) add();
            }
          }}
        />
        <Button type="button" variant="outline" disabled={disabled || !text.trim()} onClick={add} aria-label={`Add to ${label.toLowerCase()}`}>
          <Plus aria-hidden /> Add
        </Button>
      </div>
      {shown ? (
        <p role="alert" className="text-xs text-destructive">
          {shown}
        </p>
      ) : null}
    </div>
  );
}
