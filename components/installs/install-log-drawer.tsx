'use client';

import Link from 'next/link';
import { progressTone, shownPercent, stageLabel } from '../jobs/format';
import { JobLog } from '../jobs/job-log';
import { useJob } from '../jobs/queries';
import { StateChip } from '../jobs/state-chip';
import { useJobStream } from '../jobs/use-job-stream';
import { jobHref } from '../jobs/view';
import { Dialog } from '../ui/dialog';
import { ErrorNote, Progress, Skeleton } from '../ui/misc';

/** A side sheet: the Dialog's centred panel moved to the right edge at full height. */
const SHEET =
  'left-auto right-0 top-0 h-dvh w-full max-w-3xl translate-x-0 translate-y-0 content-start overflow-y-auto rounded-none border-y-0 border-r-0 sm:w-[min(48rem,100%)]';

/** The live log of an install's job. Closing it only closes the view; the job runs on. */
export function InstallLogDrawer({ jobId, title, onClose }: { jobId: string; title: string; onClose: () => void }) {
  const { data: job } = useJob(jobId, { poll: true });
  const stream = useJobStream(jobId);
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={title} className={SHEET}>
      <div className="grid gap-4" data-testid="install-log" data-job-id={jobId} data-state={job?.state}>
        {job ? (
          <>
            <div className="flex flex-wrap items-center gap-3">
              <StateChip state={job.state} />
              <span className="text-sm text-muted-foreground">{stageLabel(job)}</span>
              <Link href={jobHref(job.id)} className="ml-auto text-sm text-primary hover:underline">
                Open job page
              </Link>
            </div>
            <div className="flex items-center gap-3">
              <Progress value={shownPercent(job)} label={`Progress of ${job.title}`} className={progressTone(job.state)} />
              <span className="w-10 text-right text-xs text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {shownPercent(job)}%
              </span>
            </div>
            {job.state === 'failed' ? <ErrorNote error={job.error ?? 'The job failed without a reason; see the log below.'} /> : null}
          </>
        ) : (
          <Skeleton className="h-12 w-full" />
        )}
        <p className="text-xs text-muted-foreground">Closing this panel does not stop the install; use Stop on the row for that.</p>
        <JobLog jobId={jobId} jobState={job?.state} stream={stream} />
      </div>
    </Dialog>
  );
}
