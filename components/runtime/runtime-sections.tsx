'use client';

import Link from 'next/link';
import { cn } from '../ui/cn';
import { type RuntimeFilters, runtimeQuery } from './use-runtime-filters';
import { SECTIONS, type SectionId } from './view';

/** The sub-navigation of /runtime: one link per section, in the URL (?tab=…), so each section can be shared and Back works. */
export function RuntimeSections({ filters, counts }: { filters: RuntimeFilters; counts?: Partial<Record<SectionId, number>> }) {
  return (
    <nav aria-label="Runtime sections" className="-mx-1 mb-4 overflow-x-auto px-1">
      <ul className="inline-flex min-w-max items-center gap-0.5 rounded-md border bg-muted/40 p-0.5">
        {SECTIONS.map((s) => {
          const current = s.id === filters.tab;
          // Each section keeps its own filters; the search box is per list, so it does not follow.
          const q = runtimeQuery({ ...filters, tab: s.id, q: '' });
          const n = counts?.[s.id];
          return (
            <li key={s.id}>
              <Link
                href={q ? `/runtime?${q}` : '/runtime'}
                aria-current={current ? 'page' : undefined}
                data-section={s.id}
                className={cn(
                  'inline-flex items-center gap-1.5 rounded px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
                  current && 'bg-background text-foreground shadow-xs',
                )}
              >
                {s.label}
                {n ? (
                  <span className="rounded-full bg-primary/15 px-1.5 text-xs tabular-nums text-primary" title={`${n} pending`}>
                    {n}
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
