'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect } from 'react';
import { progressTone, shownPercent, stageLabel } from '../jobs/format';
import { JobActions } from '../jobs/job-actions';
import { JobLog } from '../jobs/job-log';
import { useJob } from '../jobs/queries';
import { StateChip } from '../jobs/state-chip';
import { useJobStream } from '../jobs/use-job-stream';
import { isFinal, type Job, jobHref } from '../jobs/view';
import { Dialog } from '../ui/dialog';
import { ErrorNote, Progress } from '../ui/misc';
import { invalidatePackages } from './queries';

/** A side sheet: the Dialog's centred panel moved to the right edge at full height. */
const SHEET =
  'left-auto right-0 top-0 h-dvh w-full max-w-3xl translate-x-0 translate-y-0 content-start overflow-y-auto rounded-none border-y-0 border-r-0 sm:w-[min(48rem,100%)]';

/**
 * Follows one package job live: state chip, progress and the streamed log. It stays open after the
 * job ends, showing the result or the failure's reason, until the user closes it.
 */
export function JobDrawer({
  job: initial,
  open,
  onOpenChange,
  onRetried,
}: {
  job: Job;
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** A Retry from the drawer started this job: follow it. */
  onRetried?: (j: Job) => void;
}) {
  const { data } = useJob(initial.id, { poll: true });
  const job = data ?? initial;
  const stream = useJobStream(initial.id);
  const qc = useQueryClient();
  // The stream's end event: the job is over, so what is installed may have changed.
  useEffect(() => {
    if (stream.status === 'ended') invalidatePackages(qc);
  }, [stream.status, qc]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={job.title} className={SHEET}>
      <div className="grid gap-4" data-testid="job-drawer" data-job-id={job.id} data-state={job.state}>
        <div className="flex flex-wrap items-center gap-3">
          <StateChip state={job.state} />
          <span className="text-sm text-muted-foreground">{stageLabel(job)}</span>
          <Link href={jobHref(job.id)} className="ml-auto text-sm text-primary hover:underline">
            Open job page
          </Link>
          {job.state === 'failed' || job.state === 'canceled' ? <JobActions job={job} onRetried={onRetried} /> : null}
        </div>
        <div className="flex items-center gap-3">
          <Progress value={shownPercent(job)} label={`Progress of ${job.title}`} className={progressTone(job.state)} />
          <span className="w-10 text-right text-xs text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {shownPercent(job)}%
          </span>
        </div>
        {job.state === 'failed' ? <ErrorNote error={job.error ?? 'The job failed without a reason; see the log below.'} /> : null}
        {job.state === 'succeeded' ? (
          <p role="status" className="rounded-md border border-success/40 bg-success/10 px-3 py-2 text-sm text-success">
            Done. The package lists below refresh to show the change.
          </p>
        ) : null}
        {job.state === 'canceled' ? <p className="text-sm text-muted-foreground">The job was stopped before it finished; nothing more will change.</p> : null}
        <JobLog jobId={job.id} jobState={job.state} stream={stream} />
      </div>
    </Dialog>
  );
}

/** Renders nothing: waits for a package job to end, then refreshes what is installed and detected. */
export function JobEndWatcher({ id, onDone }: { id: string; onDone: (id: string) => void }) {
  const qc = useQueryClient();
  const { data } = useJob(id, { poll: true });
  const ended = !!data && isFinal(data.state);
  useEffect(() => {
    if (!ended) return;
    invalidatePackages(qc);
    onDone(id);
  }, [ended, id, qc, onDone]);
  return null;
}
