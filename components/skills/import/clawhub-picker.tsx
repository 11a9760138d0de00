'use client';

import { Check, Search } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../ui/cn';
import { Field, Input } from '../../ui/input';
import { ErrorNote, Skeleton } from '../../ui/misc';
import { useClawhubSearch } from '../queries';
import { useDebounced } from '../use-skill-filters';
import type { ImportForm } from './form';

type Set = <K extends keyof ImportForm>(k: K, v: ImportForm[K]) => void;

/** Search the configured ClawHub registry, pick a result (or type a slug), optionally a version and publisher. */
export function ClawhubFields({ form, set, errors, disabled }: { form: ImportForm; set: Set; errors: Record<string, string>; disabled?: boolean }) {
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim(), 300);
  const search = useClawhubSearch(query);
  const hits = search.data ?? [];
  const picked = (slug: string, owner: string | null) => form.clawhubRef === slug && (form.ownerHandle.replace(/^@/, '') || null) === (owner || null);
  return (
    <div className="grid gap-3">
      <div className="grid gap-1.5">
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="Search ClawHub…"
            aria-label="Search ClawHub"
            className="pl-8"
            disabled={disabled}
            autoFocus
            data-testid="clawhub-search"
          />
        </div>
        {search.error ? (
          <ErrorNote error={search.error} />
        ) : query.length >= 2 ? (
          <ul aria-label="ClawHub results" className="grid max-h-56 gap-1 overflow-y-auto rounded-md border p-1" data-testid="clawhub-results">
            {search.isPending ? (
              [0, 1, 2].map((n) => <Skeleton key={n} className="h-12 w-full" />)
            ) : hits.length ? (
              hits.map((h) => {
                const sel = picked(h.slug, h.ownerHandle);
                return (
                  <li key={`${h.ownerHandle ?? ''}/${h.slug}`}>
                    <button
                      type="button"
                      aria-pressed={sel}
                      disabled={disabled}
                      onClick={() => {
                        set('clawhubRef', h.slug);
                        set('ownerHandle', h.ownerHandle ?? '');
                      }}
                      className={cn(
                        'flex w-full items-start gap-2 rounded px-2 py-1.5 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
                        sel && 'bg-accent',
                      )}
                    >
                      <Check aria-hidden className={cn('mt-0.5 size-4 shrink-0 text-primary', !sel && 'invisible')} />
                      <span className="grid min-w-0 flex-1">
                        <span className="flex flex-wrap items-baseline gap-x-2">
                          <span className="font-medium">{h.displayName || h.slug}</span>
                          <span className="font-mono text-xs text-muted-foreground">
                            {h.ownerHandle ? `@${h.ownerHandle}/` : ''}
                            {h.slug}
                            {h.version ? ` · ${h.version}` : ''}
                          </span>
                        </span>
                        {h.summary ? <span className="line-clamp-2 text-xs text-muted-foreground">{h.summary}</span> : null}
                      </span>
                    </button>
                  </li>
                );
              })
            ) : (
              <li className="px-2 py-3 text-center text-sm text-muted-foreground">Nothing on ClawHub matches “{query}”.</li>
            )}
          </ul>
        ) : null}
      </div>
      <div className="grid gap-3 sm:grid-cols-[1fr_8rem_10rem]">
        <Field label="Skill" htmlFor="imp-ch-ref" error={errors.clawhubRef} hint="slug or @owner/slug">
          <Input
            id="imp-ch-ref"
            value={form.clawhubRef}
            onChange={(e) => set('clawhubRef', e.target.value)}
            placeholder="weather"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!errors.clawhubRef}
            disabled={disabled}
            className="font-mono"
          />
        </Field>
        <Field label="Version" htmlFor="imp-ch-version" error={errors.clawhubVersion} hint="Latest if empty">
          <Input
            id="imp-ch-version"
            value={form.clawhubVersion}
            onChange={(e) => set('clawhubVersion', e.target.value)}
            placeholder="1.2.3"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!errors.clawhubVersion}
            disabled={disabled}
            className="font-mono"
          />
        </Field>
        <Field label="Publisher" htmlFor="imp-ch-owner" error={errors.ownerHandle} hint="When several share the slug">
          <Input
            id="imp-ch-owner"
            value={form.ownerHandle}
            onChange={(e) => set('ownerHandle', e.target.value)}
            placeholder="owner"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!errors.ownerHandle}
            disabled={disabled}
            className="font-mono"
          />
        </Field>
      </div>
    </div>
  );
}
