'use client';

import { X } from 'lucide-react';
import { useState } from 'react';
import type { NetworkPolicy, PolicyIssue } from '@/lib/network/policy/types';
import type { SandboxBackend } from '@/lib/sandbox/config/schema';
import { cn } from '../../ui/cn';
import { Input, Label } from '../../ui/input';
import { checkEntry, type EntryList } from './entries';

/**
 * An allow or deny list: type an entry, Enter adds it as a chip in its normalised form; the rule it
 * breaks shows under the input as you type. Chips are buttons: Delete, Backspace or Enter removes one.
 */
export function EntryListEditor({
  list,
  label,
  hint,
  placeholder,
  backend,
  draft,
  issues,
  disabled,
  onChange,
}: {
  list: EntryList;
  label: string;
  hint: string;
  placeholder: string;
  backend: SandboxBackend;
  draft: NetworkPolicy;
  issues: PolicyIssue[];
  disabled: boolean;
  onChange: (entries: string[]) => void;
}) {
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const entries = draft[list];
  const check = text.trim() ? checkEntry(backend, list, text, draft) : null;
  const inputId = `net-${list}`;
  const errorId = `${inputId}-error`;
  const issueAt = (i: number) => issues.find((x) => x.path === `${list}.${i}`)?.message;

  function add() {
    setSubmitted(true);
    if (!check?.ok) return;
    onChange([...entries, check.normalised]);
    setText('');
    setSubmitted(false);
  }
  function remove(i: number) {
    onChange(entries.filter((_, j) => j !== i));
    document.getElementById(inputId)?.focus();
  }

  return (
    <div className="grid gap-1.5" data-slot="network-list" data-list={list}>
      <Label htmlFor={inputId}>{label}</Label>
      <ul className="flex flex-wrap gap-1.5" aria-label={`${label} entries`}>
        {entries.length === 0 ? <li className="text-xs text-muted-foreground">None.</li> : null}
        {entries.map((e, i) => {
          const problem = issueAt(i);
          return (
            <li key={e} data-entry={e}>
              <button
                type="button"
                disabled={disabled}
                title={problem}
                aria-label={`Remove ${e}${problem ? ` (${problem})` : ''}`}
                onClick={() => remove(i)}
                onKeyDown={(ev) => {
                  if (ev.key === 'Delete' || ev.key === 'Backspace') {
                    ev.preventDefault();
                    remove(i);
                  }
                }}
                className={cn(
                  'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 font-mono text-xs focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-60',
                  problem ? 'border-destructive/60 bg-destructive/10 text-destructive' : 'bg-secondary text-secondary-foreground',
                )}
              >
                {e}
                {disabled ? null : <X aria-hidden className="size-3" />}
              </button>
            </li>
          );
        })}
      </ul>
      <Input
        id={inputId}
        value={text}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        className="font-mono"
        placeholder={placeholder}
        aria-invalid={!!check && !check.ok}
        aria-describedby={errorId}
        onChange={(e) => {
          setText(e.target.value);
          setSubmitted(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          } else if (e.key === 'Backspace' && !text && entries.length) onChange(entries.slice(0, -1));
        }}
      />
      <p
        id={errorId}
        role={check && !check.ok ? 'alert' : undefined}
        className={cn('text-xs', check && !check.ok ? 'text-destructive' : 'text-muted-foreground')}
      >
        {check && !check.ok
          ? check.message
          : check?.ok
            ? `Enter adds ${check.normalised}${check.normalised !== text.trim() ? ' (normalised)' : ''}.`
            : submitted
              ? 'Type an entry first.'
              : hint}
      </p>
    </div>
  );
}
