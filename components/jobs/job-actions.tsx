'use client';

import { useQueryClient } from '@tanstack/react-query';
import { RotateCcw, Square } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { cancelJobAction, retryJobAction } from '@/app/(console)/jobs/actions';
import { errorMessage } from '@/components/error-message';
import { Button } from '../ui/button';
import { Confirm } from '../ui/dialog';
import { Tip } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { jobKey, useJobKinds } from './queries';
import { useJobStartedToast } from './use-start-job';
import { type Job, jobHref } from './view';

/** Cancel (queued or running jobs) and Retry (failed or canceled ones), each behind its permission. */
export function JobActions({
  job,
  onRetried,
}: {
  job: Job /** Follow the new job here (e.g. in a drawer) instead of opening its page. */;
  onRetried?: (j: Job) => void;
}) {
  const qc = useQueryClient();
  const router = useRouter();
  const started = useJobStartedToast();
  const canCancel = useCan('jobs.cancel');
  const kinds = useJobKinds();
  // A retry needs the permission of what the job does (an install needs packages.write), not just jobs.run.
  const kindInfo = kinds.data?.find((k) => k.kind === job.kind);
  const canRetry = useCan(kindInfo?.retryPermission ?? 'jobs.run');
  const notRetryable = kindInfo !== undefined && kindInfo.retryPermission === null;
  const [confirming, setConfirming] = useState(false);

  const cancel = useOperation(cancelJobAction, {
    input: () => ({ params: { id: job.id } }),
    onSuccess: (j) => {
      qc.setQueryData<Job>(jobKey(j.id), (old) => ({ ...old, ...j }));
      void qc.invalidateQueries({ queryKey: ['jobs'] });
      setConfirming(false);
      toast.success(j.state === 'canceled' ? 'Job stopped' : 'Cancel requested', {
        description: j.state === 'canceled' ? j.title : 'Its processes are being stopped.',
      });
    },
    onError: (e) => {
      setConfirming(false);
      toast.error('Could not cancel the job', { description: errorMessage(e) });
      void qc.invalidateQueries({ queryKey: jobKey(job.id) });
    },
  });

  const retry = useOperation(retryJobAction, {
    input: () => ({ params: { id: job.id } }),
    onSuccess: (j) => {
      qc.setQueryData(jobKey(j.id), j);
      void qc.invalidateQueries({ queryKey: ['jobs'] });
      started(j, 'Retry started');
      if (onRetried) onRetried(j);
      else router.push(jobHref(j.id));
    },
    onError: (e) => toast.error('Could not retry the job', { description: errorMessage(e) }),
  });

  const cancellable = job.state === 'queued' || job.state === 'running';
  const retryable = job.state === 'failed' || job.state === 'canceled';
  const canceling = job.cancelRequested && job.state === 'running';

  return (
    <>
      {cancellable ? (
        <Tip content={canCancel.why ?? (canceling ? 'Cancel was requested; its processes are being stopped.' : undefined)}>
          <Button variant="outline" disabled={!canCancel.allowed || canceling || cancel.isPending} onClick={() => setConfirming(true)}>
            <Square aria-hidden /> Cancel
          </Button>
        </Tip>
      ) : null}
      {retryable ? (
        <Tip content={notRetryable ? 'Jobs of this kind are not retried: start it again where it was started.' : canRetry.why}>
          <Button disabled={notRetryable || !canRetry.allowed || retry.isPending} onClick={() => retry.mutate()}>
            <RotateCcw aria-hidden /> Retry
          </Button>
        </Tip>
      ) : null}
      <Confirm
        open={confirming && cancellable}
        onOpenChange={setConfirming}
        title="Cancel this job?"
        description={<>Cancel “{job.title}”? Its processes will be stopped and the work so far is lost.</>}
        confirmLabel="Cancel job"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
      />
    </>
  );
}
