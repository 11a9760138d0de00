'use client';

import { useRef } from 'react';
import { cn } from '../ui/cn';
import { STATUS_TABS, type StatusTab } from './view';

/**
 * All / Ready / Needs setup / Disabled / Invalid / Blocked with their counts (of what the search and
 * the source filter match, so a count is the rows its tab shows). Arrow keys, Home and End move between tabs.
 */
export function StatusTabs({
  value,
  counts,
  onChange,
  controls,
}: {
  value: StatusTab;
  counts: Record<StatusTab, number> | undefined;
  onChange: (t: StatusTab) => void;
  controls: string;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: React.KeyboardEvent, i: number) => {
    const n = STATUS_TABS.length;
    const next = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
    if (next < 0) return;
    e.preventDefault();
    refs.current[next]?.focus();
    onChange(STATUS_TABS[next].id);
  };
  return (
    <div role="tablist" aria-label="Skill status" className="inline-flex flex-wrap rounded-md border bg-muted/40 p-0.5" data-testid="status-tabs">
      {STATUS_TABS.map((t, i) => {
        const selected = t.id === value;
        const n = counts?.[t.id];
        const alert = (t.id === 'blocked' || t.id === 'invalid') && !!n;
        return (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`skills-tab-${t.id}`}
            aria-selected={selected}
            aria-controls={controls}
            tabIndex={selected ? 0 : -1}
            data-testid={`status-tab-${t.id}`}
            onClick={() => onChange(t.id)}
            onKeyDown={(e) => onKey(e, i)}
            className={cn(
              'inline-flex items-center gap-1.5 rounded px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
              selected && 'bg-background text-foreground shadow-xs',
            )}
          >
            {t.label}{' '}
            <span
              className={cn(
                'min-w-5 rounded-full px-1.5 text-center text-xs tabular-nums',
                alert ? 'bg-destructive/15 text-destructive' : 'bg-muted text-muted-foreground',
              )}
            >
              {n ?? '–'}
            </span>
          </button>
        );
      })}
    </div>
  );
}
