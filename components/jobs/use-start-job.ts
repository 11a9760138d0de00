'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { startJobAction } from '@/app/(console)/jobs/actions';
import { useOperation } from '../use-operation';
import { jobKey } from './queries';
import { type Job, jobHref } from './view';

/** Toast for a job that was just queued, with a way to open it. */
export function useJobStartedToast() {
  const router = useRouter();
  // The toast's id is the one the job's outcome toast uses, so "started" is replaced once it ends.
  return (job: Job, heading = 'Job started') =>
    toast.success(heading, {
      id: `job-end-${job.id}`,
      description: job.title,
      action: { label: 'Open job', onClick: () => router.push(jobHref(job.id)) },
    });
}

/** Starts a job of a startable kind (server action); the lists pick the new job up from the cache refresh. */
export function useStartJob() {
  const qc = useQueryClient();
  const started = useJobStartedToast();
  return useOperation(startJobAction, {
    input: (v: { kind: string; params?: Record<string, unknown> }) => ({ body: { kind: v.kind, params: v.params ?? {} } }),
    onSuccess: (job) => {
      qc.setQueryData(jobKey(job.id), job);
      void qc.invalidateQueries({ queryKey: ['jobs'] });
      started(job);
    },
  });
}
