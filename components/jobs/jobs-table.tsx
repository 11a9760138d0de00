'use client';

import { ArrowDown, ArrowUp } from 'lucide-react';
import Link from 'next/link';
import { Progress, Skeleton } from '../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { fullTime, relativeTime, stageLabel } from './format';
import { JobDuration } from './job-duration';
import { StateChip } from './state-chip';
import { useNow } from './use-now';
import { type Job, type JobSort, jobHref } from './view';

const COLUMNS = 8;

/** The job rows; the Created header flips the sort order. */
export function JobsTable({ jobs, sort, onSort, loading }: { jobs: Job[]; sort: JobSort; onSort: (s: JobSort) => void; loading?: boolean }) {
  // Relative times ("2 minutes ago") refresh twice a minute.
  useNow(30_000);
  const desc = sort === 'created_desc';
  return (
    <Table aria-label="Jobs" aria-busy={loading || undefined}>
      <THead>
        <TR className="hover:bg-transparent">
          <TH className="w-28">State</TH>
          <TH>Title</TH>
          <TH>Kind</TH>
          <TH>Progress</TH>
          <TH className="hidden 2xl:table-cell">Created by</TH>
          <TH aria-sort={desc ? 'descending' : 'ascending'}>
            <button
              type="button"
              onClick={() => onSort(desc ? 'created_asc' : 'created_desc')}
              className="-mx-1 inline-flex items-center gap-1 rounded px-1 hover:text-foreground"
              title={desc ? 'Newest first — show oldest first' : 'Oldest first — show newest first'}
            >
              Created {desc ? <ArrowDown aria-hidden className="size-3.5" /> : <ArrowUp aria-hidden className="size-3.5" />}
            </button>
          </TH>
          <TH className="text-right">Duration</TH>
          <TH className="text-right" title="How many times the job ran; more than 1 means it was tried again after a failure">
            Attempts
          </TH>
        </TR>
      </THead>
      <TBody>{loading ? <SkeletonRows /> : jobs.map((j) => <JobRow key={j.id} job={j} />)}</TBody>
    </Table>
  );
}

function JobRow({ job }: { job: Job }) {
  return (
    <TR data-job-id={job.id} data-state={job.state}>
      <TD>
        <StateChip state={job.state} />
      </TD>
      <TD className="max-w-80 2xl:max-w-96">
        <Link href={jobHref(job.id)} className="block truncate font-medium hover:underline focus-visible:underline" title={job.title}>
          {job.title}
        </Link>
        <p className="truncate text-xs text-muted-foreground 2xl:hidden">by {job.createdByLabel}</p>
        {job.state === 'failed' && job.error ? (
          <p className="truncate text-xs text-destructive" title={job.error}>
            {job.error}
          </p>
        ) : null}
      </TD>
      <TD>
        <code className="whitespace-nowrap rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{job.kind}</code>
      </TD>
      <TD>
        <RowProgress job={job} />
      </TD>
      <TD className="hidden max-w-40 truncate text-muted-foreground 2xl:table-cell" title={job.createdByLabel}>
        {job.createdByLabel}
      </TD>
      <TD className="whitespace-nowrap text-muted-foreground">
        <time dateTime={job.createdAt} title={fullTime(job.createdAt)}>
          {relativeTime(job.createdAt)}
        </time>
      </TD>
      <TD className="whitespace-nowrap text-right">
        <JobDuration job={job} />
      </TD>
      <TD className="text-right text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {job.attempts > 1 ? `${job.attempts} of ${job.maxAttempts}` : job.attempts}
      </TD>
    </TR>
  );
}

function RowProgress({ job }: { job: Job }) {
  if (job.state === 'running') {
    return (
      <div className="grid w-32 gap-1">
        <Progress value={job.progressPercent} label={`Progress of ${job.title}`} />
        <span className="truncate text-xs text-muted-foreground" title={stageLabel(job)}>
          {job.progressPercent}% · {stageLabel(job)}
        </span>
      </div>
    );
  }
  return (
    <span className="block max-w-32 truncate text-xs text-muted-foreground" title={stageLabel(job)}>
      {stageLabel(job)}
    </span>
  );
}

function SkeletonRows() {
  return (
    <>
      {Array.from({ length: 6 }, (_, i) => (
        <TR key={i} aria-hidden className="hover:bg-transparent">
          {Array.from({ length: COLUMNS }, (_, c) => (
            <TD key={c} className={c === 4 ? 'hidden 2xl:table-cell' : undefined}>
              <Skeleton className={c === 1 ? 'h-4 w-56' : c === 3 ? 'h-2 w-28' : 'h-4 w-16'} />
            </TD>
          ))}
        </TR>
      ))}
    </>
  );
}
