'use client';

import { Search, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../ui/button';
import { Input, Select } from '../ui/input';
import type { SkillFilters } from './use-skill-filters';
import { SOURCE_LABELS, SOURCE_ORDER } from './view';

/** Search (press "/" to focus) and the source filter. */
export function SkillsToolbar({ filters, setFilters }: { filters: SkillFilters; setFilters: (p: Partial<SkillFilters>) => void }) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      const typing = !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable);
      if (e.key === '/' && !typing && !e.metaKey && !e.ctrlKey) {
        e.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <div className="relative">
        <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          ref={input}
          type="search"
          value={filters.q}
          onChange={(e) => setFilters({ q: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && filters.q) {
              e.preventDefault();
              setFilters({ q: '' });
            }
          }}
          placeholder="Search skills…"
          aria-label="Search skills"
          aria-keyshortcuts="/"
          data-testid="skills-search"
          className="h-8 w-56 pl-8 pr-8"
        />
        {filters.q ? (
          <button
            type="button"
            onClick={() => setFilters({ q: '' })}
            aria-label="Clear the search"
            className="absolute right-2 top-1/2 -translate-y-1/2 rounded text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
          >
            <X className="size-4" />
          </button>
        ) : (
          <kbd aria-hidden className="pointer-events-none absolute right-2 top-1/2 -translate-y-1/2 rounded border px-1 text-[10px] text-muted-foreground">
            /
          </kbd>
        )}
      </div>
      <Select
        aria-label="Source"
        value={filters.source}
        onChange={(e) => setFilters({ source: e.target.value })}
        className="h-8 w-40"
        data-testid="source-filter"
      >
        <option value="">All sources</option>
        {SOURCE_ORDER.map((s) => (
          <option key={s} value={s}>
            {SOURCE_LABELS[s]}
          </option>
        ))}
      </Select>
      {filters.source || filters.q || filters.status !== 'all' ? (
        <Button variant="ghost" size="sm" onClick={() => setFilters({ q: '', source: '', status: 'all' })}>
          Reset filters
        </Button>
      ) : null}
    </div>
  );
}
