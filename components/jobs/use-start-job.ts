'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { api } from '../api';
import { jobKey } from './queries';
import { jobHref, type Job } from './types';

/** Toast for a job that was just queued, with a way to open it. */
export function useJobStartedToast() {
  const router = useRouter();
  return (job: Job, heading = 'Job started') =>
    toast.success(heading, {
      description: job.title,
      action: { label: 'Open job', onClick: () => router.push(jobHref(job.id)) },
    });
}

/** POST /api/v1/jobs for a startable kind; the lists pick the new job up from the cache refresh. */
export function useStartJob() {
  const qc = useQueryClient();
  const started = useJobStartedToast();
  return useMutation({
    mutationFn: (input: { kind: string; params?: Record<string, unknown> }) => api<Job>('/api/v1/jobs', { method: 'POST', body: { kind: input.kind, params: input.params ?? {} } }),
    onSuccess: (job) => {
      qc.setQueryData(jobKey(job.id), job);
      void qc.invalidateQueries({ queryKey: ['jobs'] });
      started(job);
    },
  });
}
