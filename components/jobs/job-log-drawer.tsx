'use client';

import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { Dialog } from '../ui/dialog';
import { ErrorNote, Progress, Skeleton } from '../ui/misc';
import { progressTone, shownPercent, stageLabel } from './format';
import { JobActions } from './job-actions';
import { JobLog } from './job-log';
import { useJob } from './queries';
import { StateChip } from './state-chip';
import { useJobStream } from './use-job-stream';
import { isFinal, type Job, jobHref } from './view';

/** A side sheet: the Dialog's centred panel moved to the right edge at full height. */
export const SHEET =
  'left-auto right-0 top-0 h-dvh w-full max-w-3xl translate-x-0 translate-y-0 content-start overflow-y-auto rounded-none border-y-0 border-r-0 sm:w-[min(48rem,100%)]';

/** A job's state chip, stage, link to its page and progress bar; `children` go beside the link. */
export function JobRunHead({ job, children }: { job: Job; children?: React.ReactNode }) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <StateChip state={job.state} />
        <span className="text-sm text-muted-foreground">{stageLabel(job)}</span>
        <Link href={jobHref(job.id)} className="ml-auto text-sm text-primary hover:underline">
          Open job page
        </Link>
        {children}
      </div>
      <div className="flex items-center gap-3">
        <Progress value={shownPercent(job)} label={`Progress of ${job.title}`} className={progressTone(job.state)} />
        <span className="w-10 text-right text-xs text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
          {shownPercent(job)}%
        </span>
      </div>
    </>
  );
}

/**
 * Follows one job live: state chip, progress and the streamed log. It stays open after the job
 * ends, showing the result or the failure's reason, until the user closes it; closing it only
 * closes the view, the job runs on.
 */
export function JobLogDrawer({
  jobId,
  initial,
  title,
  open = true,
  onOpenChange,
  actions = false,
  onRetried,
  onEnded,
  doneNote,
  hint,
  testId = 'job-drawer',
}: {
  jobId: string;
  /** The job as the caller already has it, shown until the first fetch answers. */
  initial?: Job;
  /** Defaults to the job's own title. */
  title?: string;
  open?: boolean;
  onOpenChange: (o: boolean) => void;
  /** Offer the job's own Retry / Cancel on a failed or canceled job. */
  actions?: boolean;
  /** A Retry from the drawer started this job: follow it. */
  onRetried?: (j: Job) => void;
  /** Once, when the job is seen ending (its stream's end event or a final state). */
  onEnded?: () => void;
  /** Said under the progress once the job succeeded. */
  doneNote?: string;
  /** Said above the log. */
  hint?: string;
  testId?: string;
}) {
  const { data } = useJob(jobId, { poll: true });
  const job = data ?? initial;
  const stream = useJobStream(jobId);
  const ended = stream.status === 'ended' || (!!job && isFinal(job.state));
  const endedRef = useRef(onEnded);
  endedRef.current = onEnded;
  useEffect(() => {
    if (ended) endedRef.current?.();
  }, [ended]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title ?? job?.title ?? 'Job'} className={SHEET}>
      <div className="grid gap-4" data-testid={testId} data-job-id={jobId} data-state={job?.state}>
        {job ? (
          <>
            <JobRunHead job={job}>
              {actions && (job.state === 'failed' || job.state === 'canceled') ? <JobActions job={job} onRetried={onRetried} /> : null}
            </JobRunHead>
            {job.state === 'failed' ? <ErrorNote error={job.error ?? 'The job failed without a reason; see the log below.'} /> : null}
            {job.state === 'succeeded' && doneNote ? (
              <p role="status" className="rounded-md border border-success/40 bg-success/10 px-3 py-2 text-sm text-success">
                {doneNote}
              </p>
            ) : null}
            {job.state === 'canceled' ? (
              <p className="text-sm text-muted-foreground">The job was stopped before it finished; nothing more will change.</p>
            ) : null}
          </>
        ) : (
          <Skeleton className="h-12 w-full" />
        )}
        {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
        <JobLog jobId={jobId} jobState={job?.state} stream={stream} />
      </div>
    </Dialog>
  );
}
