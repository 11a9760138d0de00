'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { formatDuration, jobElapsedMs, stageLabel } from '../jobs/format';
import { useJob } from '../jobs/queries';
import { StateChip } from '../jobs/state-chip';
import { isFinal, type Job, jobHref } from '../jobs/view';
import { ErrorNote, Progress } from '../ui/misc';

/** Follows the parent install job (pushed live by the page's jobs socket, else polled): state, progress, link; calls onEnded once when it ends. */
export function DepsInstallJob({ initial, onEnded }: { initial: Job; onEnded: (job: Job) => void }) {
  const { data } = useJob(initial.id, { poll: true });
  const job = data ?? initial;
  const final = isFinal(job.state);
  const reported = useRef(false);
  const ended = useRef(onEnded);
  ended.current = onEnded;
  useEffect(() => {
    if (final && !reported.current) {
      reported.current = true;
      ended.current(job);
    }
  }, [final, job]);
  const percent = final && job.state === 'succeeded' ? 100 : Math.round(job.progressPercent);
  const elapsed = jobElapsedMs(job);
  return (
    <div className="flex min-w-64 flex-1 flex-wrap items-center gap-3" data-testid="deps-install-job" data-job-id={job.id} data-state={job.state}>
      <StateChip state={job.state} />
      <Link href={jobHref(job.id)} className="text-sm text-primary underline-offset-4 hover:underline">
        {job.title}
      </Link>
      <span className="text-xs text-muted-foreground">
        {stageLabel(job)}
        {elapsed !== null && final ? ` · ${formatDuration(elapsed)}` : ''}
      </span>
      <div className="flex min-w-40 flex-1 items-center gap-2">
        <Progress value={percent} label={`Progress of ${job.title}`} />
        <span className="w-10 text-right text-xs text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {percent}%
        </span>
      </div>
      {job.state === 'failed' && job.error ? <ErrorNote error={job.error} className="basis-full" /> : null}
    </div>
  );
}
