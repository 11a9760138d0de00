'use client';

import { RefreshCw } from 'lucide-react';
import { Progress as P, Tooltip as T } from 'radix-ui';
import type * as React from 'react';
import { errorMessage } from '@/components/error-message';
import { Button } from './button';
import { cn } from './cn';

export function Skeleton({ className, ...p }: React.HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('animate-pulse rounded-md bg-muted', className)} {...p} />;
}

export function Progress({ value, className, label }: { value: number; className?: string; label?: string }) {
  return (
    <P.Root value={value} aria-label={label ?? 'Progress'} className={cn('relative h-2 w-full overflow-hidden rounded-full bg-muted', className)}>
      <P.Indicator className="h-full bg-primary transition-[width] duration-300" style={{ width: `${Math.max(0, Math.min(100, value))}%` }} />
    </P.Root>
  );
}

/** Wraps a control with a tooltip; a disabled control still shows it (through a focusable span). */
export function Tip({ content, children }: { content?: React.ReactNode; children: React.ReactElement }) {
  if (!content) return children;
  return (
    <T.Provider delayDuration={200}>
      <T.Root>
        <T.Trigger asChild>
          <span tabIndex={0} className="inline-flex">
            {children}
          </span>
        </T.Trigger>
        <T.Portal>
          <T.Content sideOffset={6} className="z-50 max-w-xs rounded-md bg-foreground px-2.5 py-1.5 text-xs text-background shadow-md">
            {content}
          </T.Content>
        </T.Portal>
      </T.Root>
    </T.Provider>
  );
}

export function EmptyState({ icon, title, children, action }: { icon?: React.ReactNode; title: string; children?: React.ReactNode; action?: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed p-10 text-center">
      {icon ? <div className="text-muted-foreground [&_svg]:size-8">{icon}</div> : null}
      <p className="font-medium">{title}</p>
      {children ? <div className="max-w-md text-sm text-muted-foreground">{children}</div> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}

export function ErrorNote({ error, className }: { error: unknown; className?: string }) {
  if (!error) return null;
  const message = errorMessage(error);
  return (
    <div role="alert" className={cn('rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive', className)}>
      {message}
    </div>
  );
}

/** A failed load: what went wrong, and a way to try again. */
export function RetryableError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div className="grid gap-2">
      <ErrorNote error={error} />
      <div>
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RefreshCw aria-hidden /> Try again
        </Button>
      </div>
    </div>
  );
}
