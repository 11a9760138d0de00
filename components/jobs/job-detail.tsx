'use client';

import { ArrowLeft, Ban, CircleX, RefreshCw } from 'lucide-react';
import Link from 'next/link';
import { useEffect } from 'react';
import { ApiError } from '../api';
import { Button } from '../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card';
import { EmptyState, ErrorNote, Skeleton } from '../ui/misc';
import { JobFacts } from './job-facts';
import { JobHeader } from './job-header';
import { JobLog } from './job-log';
import { JobResult } from './job-result';
import { useJob } from './queries';
import { useJobStream } from './use-job-stream';
import type { Job } from './view';

/** /jobs/{id}: a job's state, result and live log. Remounts per id so each job gets a fresh log. */
export function JobDetail({ id }: { id: string }) {
  return <JobDetailView key={id} id={id} />;
}

function JobDetailView({ id }: { id: string }) {
  const stream = useJobStream(id);
  // The event stream keeps the job current; poll only while it is down.
  const job = useJob(id, { poll: stream.status !== 'live' && stream.status !== 'ended' });

  useEffect(() => {
    if (job.data?.title) document.title = `${job.data.title} · Skilldock`;
  }, [job.data?.title]);

  if (job.isPending) return <DetailSkeleton />;
  if (job.error && !job.data) {
    const missing = job.error instanceof ApiError && (job.error.status === 404 || job.error.code === 'validation');
    return missing ? (
      <EmptyState
        icon={<CircleX />}
        title="No such job"
        action={
          <Button asChild variant="outline">
            <Link href="/jobs">
              <ArrowLeft aria-hidden /> All jobs
            </Link>
          </Button>
        }
      >
        There is no job with the id <code className="font-mono">{id}</code>. It may have been removed, or the link is mistyped.
      </EmptyState>
    ) : (
      <div className="grid gap-3">
        <ErrorNote error={job.error} />
        <div>
          <Button variant="outline" onClick={() => void job.refetch()}>
            <RefreshCw aria-hidden /> Try again
          </Button>
        </div>
      </div>
    );
  }

  const j = job.data!;
  return (
    <>
      <JobHeader job={j} />
      <div className="grid gap-4">
        <Outcome job={j} />
        <JobFacts job={j} />
        {j.result !== null && j.result !== undefined ? <JobResult kind={j.kind} result={j.result} /> : null}
        <Params params={j.params} />
        <JobLog jobId={j.id} jobState={j.state} stream={stream} />
      </div>
    </>
  );
}

/** Why a job failed (or was canceled), shown where it cannot be missed. */
function Outcome({ job }: { job: Job }) {
  if (!job.error || (job.state !== 'failed' && job.state !== 'canceled')) return null;
  const failed = job.state === 'failed';
  const Icon = failed ? CircleX : Ban;
  return (
    <div
      role="alert"
      className={
        failed ? 'flex gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-4' : 'flex gap-3 rounded-lg border border-warning/50 bg-warning/10 p-4'
      }
    >
      <Icon aria-hidden className={failed ? 'mt-0.5 size-5 shrink-0 text-destructive' : 'mt-0.5 size-5 shrink-0 text-muted-foreground'} />
      <div className="grid min-w-0 gap-1">
        <p className={failed ? 'font-medium text-destructive' : 'font-medium'}>
          {failed ? 'Error' : 'Stopped on request'}
          {failed && job.failure ? (
            <code className="ml-2 rounded bg-muted px-1.5 py-0.5 font-mono text-xs font-normal text-muted-foreground" data-testid="failure-code">
              {job.failure.code}
            </code>
          ) : null}
        </p>
        <p className="text-sm break-words whitespace-pre-wrap">{job.error}</p>
        {failed && job.failure?.hint ? <p className="text-sm">{job.failure.hint}</p> : null}
        {failed ? <p className="text-xs text-muted-foreground">The log below shows what happened; Retry runs it again with the same parameters.</p> : null}
      </div>
    </div>
  );
}

function Params({ params }: { params: unknown }) {
  if (!params || typeof params !== 'object' || !Object.keys(params).length) return null;
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle className="text-sm">Parameters</CardTitle>
      </CardHeader>
      <CardContent>
        <pre className="overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs">{JSON.stringify(params, null, 2)}</pre>
      </CardContent>
    </Card>
  );
}

function DetailSkeleton() {
  return (
    <div className="grid gap-4" role="status" aria-busy="true" aria-label="Loading the job">
      <Skeleton className="h-4 w-16" />
      <Skeleton className="h-8 w-2/3" />
      <Skeleton className="h-4 w-1/2" />
      <Skeleton className="h-32 w-full" />
      <Skeleton className="h-80 w-full" />
    </div>
  );
}
