'use client';

import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Input } from '../ui/input';
import { ErrorNote, Skeleton } from '../ui/misc';
import { NOTES_MAX, NotesField } from './notes-field';

export interface PickItem {
  /** What the submit sends for it. */
  value: string;
  label: string;
  /** Matched by the filter besides the label. */
  key?: string;
  note: string;
  disabled: boolean;
}

/** What a bulk start answers: what started, and what was refused with why. */
export interface StartedMany {
  installs: unknown[];
  errors: { target: string; message: string }[];
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function announceStarted(r: StartedMany, success: string) {
  if (r.errors.length)
    toast.warning(`${r.installs.length} started, ${r.errors.length} refused`, { description: r.errors.map((x) => `${x.target}: ${x.message}`).join('\n') });
  else toast.success(success);
}

/**
 * Checkboxes over a list (catalog skills, or sandbox configs), optional notes, and one submit that
 * starts one job for everything picked.
 */
export function PickDialog({
  title,
  description,
  legend,
  list,
  empty,
  filterLabel,
  notesId,
  submitLabel,
  pending,
  error,
  onSubmit,
  onClose,
  aside,
}: {
  title: string;
  description: string;
  legend: string;
  list: { items?: PickItem[]; isPending: boolean; error: unknown };
  /** Said when the list is empty (`filtered`: because of the filter). */
  empty: (filtered: boolean) => string;
  /** Shows a filter box with this label. */
  filterLabel?: string;
  notesId: string;
  /** The submit button's words for `n` picked (0: what to do first). */
  submitLabel: (n: number) => string;
  pending: boolean;
  error: unknown;
  onSubmit: (values: string[], notes: string) => void;
  onClose: () => void;
  /** Said under the list about what is picked (what the job will do to it). */
  aside?: (values: string[]) => ReactNode;
}) {
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState('');
  const [notes, setNotes] = useState('');
  const f = filter.trim().toLowerCase();
  const items = (list.items ?? []).filter((i) => !f || i.label.toLowerCase().includes(f) || !!i.key?.includes(f));
  const toggle = (v: string) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(v)) n.delete(v);
      else n.add(v);
      return n;
    });
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={title} description={description}>
      <form
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen.size || notes.length > NOTES_MAX) return;
          onSubmit([...chosen], notes);
        }}
      >
        {filterLabel ? (
          <Input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={`${filterLabel}…`} aria-label={filterLabel} />
        ) : null}
        <fieldset className="grid max-h-64 gap-1 overflow-y-auto rounded-md border p-2">
          <legend className="sr-only">{legend}</legend>
          {list.isPending ? (
            <Skeleton className="h-16 w-full" />
          ) : list.error ? (
            <ErrorNote error={list.error} />
          ) : items.length === 0 ? (
            <p className="p-2 text-sm text-muted-foreground">{empty(!!f)}</p>
          ) : (
            items.map((i) => (
              <label
                key={i.value}
                className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-muted/50 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60"
              >
                <input type="checkbox" className="size-4 accent-primary" checked={chosen.has(i.value)} disabled={i.disabled} onChange={() => toggle(i.value)} />
                <span className="min-w-0 flex-1 truncate">{i.label}</span>
                <span className="text-xs text-muted-foreground">{i.note}</span>
              </label>
            ))
          )}
        </fieldset>
        {aside?.([...chosen])}
        <NotesField id={notesId} value={notes} onChange={setNotes} />
        {error ? <ErrorNote error={error} /> : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending || !chosen.size}>
            {pending ? 'Starting…' : submitLabel(chosen.size)}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
