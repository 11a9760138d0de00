'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { JobLogDrawer } from '../jobs/job-log-drawer';
import { useJob } from '../jobs/queries';
import { isFinal, type Job } from '../jobs/view';
import { invalidatePackages } from './queries';

/**
 * Follows one package job live (the shared job drawer). When it ends, what is installed may have
 * changed, so the package lists are refetched.
 */
export function JobDrawer({
  job,
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
  const qc = useQueryClient();
  return (
    <JobLogDrawer
      jobId={job.id}
      initial={job}
      open={open}
      onOpenChange={onOpenChange}
      actions
      onRetried={onRetried}
      onEnded={() => invalidatePackages(qc)}
      doneNote="Done. The package lists below refresh to show the change."
    />
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
