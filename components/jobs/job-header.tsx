'use client';

import { ArrowLeft } from 'lucide-react';
import Link from 'next/link';
import { CopyButton } from '../ui/copy-button';
import { JobActions } from './job-actions';
import { StateChip } from './state-chip';
import type { Job } from './view';

/** Title, state, kind and id of a job, with its actions on the right. */
export function JobHeader({ job }: { job: Job }) {
  return (
    <div className="mb-6 grid gap-3">
      <Link href="/jobs" className="inline-flex w-fit items-center gap-1 rounded text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden className="size-4" /> Jobs
      </Link>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-2">
          <div className="flex flex-wrap items-center gap-2.5">
            <h1 className="text-2xl font-semibold tracking-tight break-words">{job.title}</h1>
            <StateChip state={job.state} />
          </div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
            <span>
              Kind <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-foreground">{job.kind}</code>
            </span>
            <span className="inline-flex items-center gap-1">
              Id <code className="font-mono text-xs text-foreground">{job.id}</code>
              <CopyButton value={job.id} label="Job id to clipboard" tooltip="Copy the job id" className="size-7" />
            </span>
            {job.retryOf ? (
              <span>
                Retry of{' '}
                <Link href={`/jobs/${job.retryOf}`} className="font-mono text-xs text-primary hover:underline">
                  {job.retryOf.slice(0, 8)}
                </Link>
              </span>
            ) : null}
            {job.parentId ? (
              <span>
                Part of{' '}
                <Link href={`/jobs/${job.parentId}`} className="font-mono text-xs text-primary hover:underline">
                  {job.parentId.slice(0, 8)}
                </Link>
              </span>
            ) : null}
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <JobActions job={job} />
        </div>
      </div>
    </div>
  );
}
