'use client';

import type * as React from 'react';
import { ApiError } from '../api';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { cn } from '../ui/cn';
import { ErrorNote, RetryableError, Skeleton } from '../ui/misc';

/** A card's title and description, with its primary action on the right. */
export function SettingsCardHeader({ title, description, children }: { title: string; description: React.ReactNode; children?: React.ReactNode }) {
  return (
    <CardHeader className="flex-row items-start justify-between gap-3">
      <div className="grid gap-1">
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </div>
      {children}
    </CardHeader>
  );
}

/**
 * A settings form's card: a failed load with Try again, skeletons until `value` is there, then the form.
 * The form is a render function so that it only runs once `value` exists.
 */
export function SettingsFormCard<T>({
  title,
  description,
  query,
  value,
  loadingLabel,
  skeleton,
  children,
}: {
  title: string;
  description: React.ReactNode;
  query: { error: unknown; data: unknown; refetch: () => unknown };
  value: T | null | undefined;
  loadingLabel: string;
  skeleton?: React.ReactNode;
  children: (value: T) => React.ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.error && !query.data ? (
          <RetryableError error={query.error} onRetry={() => void query.refetch()} />
        ) : value === null || value === undefined ? (
          <div className="grid gap-4 sm:grid-cols-2" role="status" aria-busy="true" aria-label={loadingLabel}>
            {skeleton ?? [0, 1, 2, 3].map((n) => <Skeleton key={n} className="h-14 w-full" />)}
          </div>
        ) : (
          children(value)
        )}
      </CardContent>
    </Card>
  );
}

/** The top of a settings form: why it is read only, and a failed save that is not about one field (those show at their fields). */
export function SettingsFormNotes({ can, saveError, className }: { can: { allowed: boolean; why?: string }; saveError: unknown; className?: string }) {
  return (
    <>
      {!can.allowed ? <p className={cn('text-sm text-muted-foreground', className)}>Read only: {can.why}</p> : null}
      <ErrorNote error={saveError && !(saveError instanceof ApiError && saveError.issues.length) ? saveError : null} className={className} />
    </>
  );
}
