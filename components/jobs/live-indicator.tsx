import { cn } from '../ui/cn';
import type { LiveStatus } from './use-jobs-socket';

const TEXT: Record<LiveStatus, { label: string; title: string }> = {
  connecting: { label: 'Connecting…', title: 'Opening the live update channel.' },
  live: { label: 'Live', title: 'Job changes are pushed to this page as they happen.' },
  reconnecting: { label: 'Reconnecting — refreshing every 5s', title: 'Live updates are down; the list is refreshed every 5 seconds until they are back.' },
};

/** Whether the page gets pushed updates, or is falling back to polling. */
export function LiveIndicator({ status, className }: { status: LiveStatus; className?: string }) {
  const t = TEXT[status];
  return (
    <span className={cn('inline-flex items-center gap-1.5 text-xs text-muted-foreground', className)} role="status" title={t.title}>
      <span
        aria-hidden
        className={cn(
          'size-2 rounded-full',
          status === 'live' ? 'bg-success' : status === 'connecting' ? 'bg-muted-foreground' : 'animate-pulse bg-warning motion-reduce:animate-none',
        )}
      />
      {t.label}
    </span>
  );
}
