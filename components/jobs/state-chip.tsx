import { Ban, CircleCheck, CircleX, Clock, LoaderCircle } from 'lucide-react';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import type { JobState } from './view';

const LOOK: Record<JobState, { variant: 'secondary' | 'default' | 'success' | 'destructive' | 'warning'; icon: React.ComponentType<{ className?: string }> }> =
  {
    queued: { variant: 'secondary', icon: Clock },
    running: { variant: 'default', icon: LoaderCircle },
    succeeded: { variant: 'success', icon: CircleCheck },
    failed: { variant: 'destructive', icon: CircleX },
    canceled: { variant: 'warning', icon: Ban },
  };

/** A job's state: colour and icon per state; the text is the plain state word. */
export function StateChip({ state, className }: { state: JobState; className?: string }) {
  const look = LOOK[state] ?? LOOK.queued;
  const Icon = look.icon;
  return (
    <Badge variant={look.variant} className={className} data-state={state}>
      <Icon aria-hidden className={cn('size-3.5', state === 'running' && 'animate-spin motion-reduce:animate-none')} />
      {state}
    </Badge>
  );
}
