'use client';

import { SearchX } from 'lucide-react';
import type * as React from 'react';
import { Button } from '../ui/button';
import { EmptyState, RetryableError } from '../ui/misc';

/** The part of a query a list reads: its data once loaded, the error of a failed load, and a retry. */
export interface ListQuery<D> {
  data: D | undefined;
  error: unknown;
  refetch: () => unknown;
}

/**
 * What a list shows for its query: the failed load with a retry (only while there is no data to
 * show), the empty state when nothing exists yet, the no-match state when the filters hide every
 * row, and otherwise its table (which draws its own skeleton while `data` is undefined, unless
 * `loading` is given).
 */
export function QueryListState<D>({
  query,
  total,
  matched,
  empty,
  noMatch,
  loading,
  children,
}: {
  query: ListQuery<D>;
  /** How many items exist, before any filter. */
  total: (data: D) => number;
  /** How many items the filters leave. */
  matched: number;
  empty: React.ReactNode;
  noMatch: React.ReactNode;
  loading?: React.ReactNode;
  children: React.ReactNode;
}) {
  const { data, error } = query;
  if (error && data === undefined) return <RetryableError error={error} onRetry={() => void query.refetch()} />;
  if (data === undefined) return <>{loading ?? children}</>;
  if (total(data) === 0) return <>{empty}</>;
  if (matched === 0) return <>{noMatch}</>;
  return <>{children}</>;
}

/** The empty state of a list whose filters hide every row, with a button that clears them. */
export function NoMatchState({ title, resetLabel, onReset, children }: { title: string; resetLabel: string; onReset: () => void; children: React.ReactNode }) {
  return (
    <EmptyState
      icon={<SearchX />}
      title={title}
      action={
        <Button variant="outline" onClick={onReset}>
          {resetLabel}
        </Button>
      }
    >
      {children}
    </EmptyState>
  );
}
