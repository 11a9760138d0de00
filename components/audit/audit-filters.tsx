'use client';

import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { get } from '@/components/api';
import { accessApi } from '@/lib/api/contracts/access';
import { Button } from '../ui/button';
import { Input, Label } from '../ui/input';
import { isoToLocal, localToIso } from './use-audit-filters';
import type { AuditFilters } from './view';

/** A text filter that writes to the URL a moment after typing stops, and follows the URL when it changes elsewhere. */
function DebouncedInput({
  id,
  value,
  onCommit,
  ...props
}: { id: string; value: string; onCommit: (v: string) => void } & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  const [draft, setDraft] = useState(value);
  const committed = useRef(value);
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  });
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    // Our own commit coming back from the URL must not undo what was typed since.
    if (value !== committed.current) setDraft(value);
  }
  useEffect(() => {
    if (draft.trim() === value) return;
    const t = setTimeout(() => {
      committed.current = draft.trim();
      commit.current(draft.trim());
    }, 350);
    return () => clearTimeout(t);
  }, [draft, value]);
  return <Input id={id} value={draft} onChange={(e) => setDraft(e.target.value)} {...props} />;
}

function DateInput({ id, value, onCommit, invalid }: { id: string; value: string; onCommit: (iso: string) => void; invalid?: boolean }) {
  return (
    <Input
      id={id}
      type="datetime-local"
      value={isoToLocal(value)}
      aria-invalid={invalid || undefined}
      onChange={(e) => {
        const iso = localToIso(e.target.value);
        if (iso || !e.target.value) onCommit(iso);
      }}
      className="[color-scheme:light] dark:[color-scheme:dark]"
    />
  );
}

/** Action prefixes ("user.", "token.") match every action of that kind. */
function prefixes(actions: string[]): string[] {
  return [...new Set(actions.filter((a) => a.includes('.')).map((a) => a.slice(0, a.indexOf('.') + 1)))];
}

export function AuditFiltersBar({
  filters,
  setFilters,
  clear,
  active,
  hideClear,
}: {
  filters: AuditFilters;
  setFilters: (p: Partial<AuditFilters>) => void;
  clear: () => void;
  active: number;
  hideClear?: boolean;
}) {
  const actions = useQuery({
    queryKey: ['audit-actions'],
    queryFn: ({ signal }) => get(accessApi.auditActions, { signal }),
    staleTime: 60_000,
  });
  const list = actions.data?.items ?? [];
  const badRange = !!filters.from && !!filters.to && new Date(filters.from) > new Date(filters.to);
  return (
    <div role="search" aria-label="Filter the audit log" className="grid gap-3 rounded-lg border bg-card p-4">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto_auto]">
        <div className="grid gap-1.5">
          <Label htmlFor="audit-actor">Actor</Label>
          <DebouncedInput
            id="audit-actor"
            value={filters.actor}
            onCommit={(actor) => setFilters({ actor })}
            placeholder="Email or token name"
            autoComplete="off"
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-action">Action</Label>
          <DebouncedInput
            id="audit-action"
            value={filters.action}
            onCommit={(action) => setFilters({ action })}
            placeholder="Any action"
            list="audit-action-options"
            autoComplete="off"
          />
          <datalist id="audit-action-options">
            {prefixes(list).map((p) => (
              <option key={p} value={p}>
                {`every ${p.slice(0, -1)} action`}
              </option>
            ))}
            {list.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-target">Target</Label>
          <DebouncedInput
            id="audit-target"
            value={filters.target}
            onCommit={(target) => setFilters({ target })}
            placeholder="Type or id, e.g. user"
            autoComplete="off"
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-from">From</Label>
          <DateInput id="audit-from" value={filters.from} onCommit={(from) => setFilters({ from })} invalid={badRange} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="audit-to">To</Label>
          <DateInput id="audit-to" value={filters.to} onCommit={(to) => setFilters({ to })} invalid={badRange} />
        </div>
      </div>
      <div className="flex min-h-8 flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
        <p role={badRange ? 'alert' : undefined} className={badRange ? 'text-destructive' : undefined}>
          {badRange
            ? '“From” is after “To”, so nothing can match. Swap them or clear one.'
            : 'Part of an action name matches (e.g. “user” finds user.create and user.update). Times are in your browser’s time zone.'}
        </p>
        {active && !hideClear ? (
          <Button variant="ghost" size="sm" onClick={clear}>
            <X /> Clear filters ({active})
          </Button>
        ) : null}
      </div>
    </div>
  );
}
