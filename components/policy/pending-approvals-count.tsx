'use client';

import { cn } from '../ui/cn';
import { useApprovals } from './queries';

/**
 * How many exec approvals wait for a decision, as a small count (nothing while none wait). It reads
 * the same polled query as the Approvals tab, so an agent blocked on a request shows everywhere.
 */
export function PendingApprovalsCount({ className }: { className?: string }) {
  const pending = useApprovals('pending');
  const n = pending.data?.items.length ?? 0;
  if (!n) return null;
  const label = `${n} exec approval${n === 1 ? '' : 's'} waiting`;
  return (
    <span
      data-testid="pending-approvals-count"
      title={label}
      className={cn('rounded-full bg-warning/30 px-1.5 text-xs font-medium tabular-nums text-foreground', className)}
    >
      {n}
      <span className="sr-only"> {n === 1 ? 'approval' : 'approvals'} waiting</span>
    </span>
  );
}
