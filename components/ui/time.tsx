'use client';

import { format, formatDistanceToNowStrict } from 'date-fns';
import { useSyncExternalStore } from 'react';
import { cn } from './cn';

/** One shared minute ticker, so relative times stay fresh without one timer per cell. */
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;
function subscribe(fn: () => void) {
  listeners.add(fn);
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, 30_000);
  }
  return () => {
    listeners.delete(fn);
    if (!listeners.size && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current time, refreshed every 30 s while anything shows a relative time. */
export function useNow(): number {
  return useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
}

export function exactTime(iso: string): string {
  return format(new Date(iso), 'yyyy-MM-dd HH:mm:ss xxx');
}

/** "3 minutes ago" / "in 30 days"; within 45 s either way (clock skew included) it is "just now". */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const d = new Date(iso);
  if (Math.abs(now - d.getTime()) < 45_000) return 'just now';
  return formatDistanceToNowStrict(d, { addSuffix: true });
}

/** A time shown relative to now ("3 minutes ago"), with the exact time in its tooltip. */
export function RelativeTime({ iso, empty = '—', className }: { iso: string | null | undefined; empty?: string; className?: string }) {
  // Re-renders every 30 s; the text is computed against the real clock, not the tick's value.
  useNow();
  if (!iso) return <span className={cn('text-muted-foreground', className)}>{empty}</span>;
  return (
    <time dateTime={iso} title={exactTime(iso)} className={cn('whitespace-nowrap', className)}>
      {relativeTime(iso)}
    </time>
  );
}
