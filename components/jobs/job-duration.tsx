'use client';

import { formatDuration, jobElapsedMs } from './format';
import { useNow } from './use-now';
import type { Job } from './view';

/** A job's run time; ticks every second while it runs. */
export function JobDuration({ job, className }: { job: Pick<Job, 'state' | 'startedAt' | 'finishedAt'>; className?: string }) {
  const running = job.state === 'running' && !job.finishedAt;
  const now = useNow(1000, running);
  const ms = jobElapsedMs(job, now);
  if (ms === null)
    return (
      <span className={className} role="img" aria-label="not started">
        —
      </span>
    );
  return (
    <span className={className} style={{ fontVariantNumeric: 'tabular-nums' }}>
      {formatDuration(ms, { wholeSeconds: running })}
    </span>
  );
}
