'use client';

import { Search, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../ui/button';
import { Input, Label, Select } from '../ui/input';
import { useJobKinds } from './queries';
import { hasFilters } from './use-job-filters';
import { JOB_STATES, type JobFilters, type JobSort, type JobState } from './view';

const SEARCH_DEBOUNCE_MS = 300;

/** Search, state, kind and sort controls for the job list; each change is written to the URL. */
export function JobsFilters({ filters, onChange }: { filters: JobFilters; onChange: (patch: Partial<JobFilters>) => void }) {
  const kinds = useJobKinds();
  const [text, setText] = useState(filters.q);
  const typed = useRef(filters.q);

  // Follow the URL when it changes from elsewhere (back/forward, "Clear").
  useEffect(() => {
    if (filters.q !== typed.current) {
      typed.current = filters.q;
      setText(filters.q);
    }
  }, [filters.q]);

  useEffect(() => {
    if (text === typed.current) return;
    const t = setTimeout(() => {
      typed.current = text;
      onChange({ q: text });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text, onChange]);

  const kindOptions = kinds.data?.map((k) => k.kind) ?? [];
  if (filters.kind && !kindOptions.includes(filters.kind)) kindOptions.push(filters.kind);

  return (
    <div className="flex flex-1 flex-wrap items-end gap-3" role="search" aria-label="Filter jobs">
      <div className="grid min-w-56 flex-1 gap-1.5">
        <Label htmlFor="jobs-q">Search</Label>
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            id="jobs-q"
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Title, kind, person or job id"
            className="pl-8"
            maxLength={200}
          />
        </div>
      </div>
      <div className="grid w-full gap-1.5 sm:w-36">
        <Label htmlFor="jobs-state">State</Label>
        <Select id="jobs-state" value={filters.state} onChange={(e) => onChange({ state: e.target.value as JobState | '' })}>
          <option value="">Any state</option>
          {JOB_STATES.map((s) => (
            <option key={s} value={s}>
              {s[0].toUpperCase() + s.slice(1)}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid w-full gap-1.5 sm:w-44">
        <Label htmlFor="jobs-kind">Kind</Label>
        <Select id="jobs-kind" value={filters.kind} onChange={(e) => onChange({ kind: e.target.value })} aria-busy={kinds.isLoading}>
          <option value="">Any kind</option>
          {kindOptions.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid w-full gap-1.5 sm:w-36">
        <Label htmlFor="jobs-sort">Sort</Label>
        <Select id="jobs-sort" value={filters.sort} onChange={(e) => onChange({ sort: e.target.value as JobSort })}>
          <option value="created_desc">Newest first</option>
          <option value="created_asc">Oldest first</option>
        </Select>
      </div>
      {hasFilters(filters) ? (
        <Button
          variant="ghost"
          onClick={() => {
            typed.current = '';
            setText('');
            onChange({ state: '', kind: '', q: '' });
          }}
        >
          <X aria-hidden /> Clear filters
        </Button>
      ) : null}
    </div>
  );
}
