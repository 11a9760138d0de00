'use client';

import { Tabs as T } from 'radix-ui';
import type * as React from 'react';
import { cn } from './cn';

/** Tabs (radix: arrow keys move between tabs, Home/End jump) styled like the console's segmented tab bars. */
export const Tabs = T.Root;

export function TabsList({ className, ...p }: React.ComponentProps<typeof T.List>) {
  return <T.List className={cn('inline-flex flex-wrap items-center gap-0.5 rounded-md border bg-muted/40 p-0.5', className)} {...p} />;
}

export function TabsTrigger({ className, ...p }: React.ComponentProps<typeof T.Trigger>) {
  return (
    <T.Trigger
      className={cn(
        'inline-flex items-center gap-1.5 rounded px-3 py-1.5 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50',
        'data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-xs',
        className,
      )}
      {...p}
    />
  );
}

export function TabsContent({ className, ...p }: React.ComponentProps<typeof T.Content>) {
  return <T.Content className={cn('focus-visible:outline-2 focus-visible:outline-ring', className)} {...p} />;
}

/** A count shown inside a tab ("Ready 4"). */
export function TabCount({ n, className }: { n: number | undefined; className?: string }) {
  return <span className={cn('rounded-full bg-muted px-1.5 text-xs tabular-nums text-muted-foreground', className)}>{n ?? '–'}</span>;
}
