'use client';

import { Activity, SearchX } from 'lucide-react';
import { PageHeader } from '../shell/shell';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { EmptyState, ErrorNote, RetryableError } from '../ui/misc';
import { useCan } from '../viewer';
import { JobsChart } from './jobs-chart';
import { JobsFilters } from './jobs-filters';
import { JobsTable } from './jobs-table';
import { LiveIndicator } from './live-indicator';
import { useJobsList, useRecentJobs } from './queries';
import { StartActions } from './start-actions';
import { hasFilters, useJobFilters } from './use-job-filters';
import { useJobsSocket } from './use-jobs-socket';

/** /jobs: every job with filters in the URL, live over /ws/jobs (polling while the socket is down). */
export function JobsPage() {
  const [filters, setFilters] = useJobFilters();
  const status = useJobsSocket();
  const live = status === 'live';
  const list = useJobsList(filters, live);
  const recent = useRecentJobs(live);
  const jobs = list.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = hasFilters(filters);
  const canRun = useCan('jobs.run');

  return (
    <>
      <PageHeader
        title="Jobs"
        description="Installs, updates, checks and other work that takes a while, with progress and live logs."
        actions={<StartActions />}
      />
      <div className="grid gap-4">
        <JobsChart jobs={recent.data?.items} loading={recent.isPending} error={recent.error} />
        <Card>
          <CardContent className="grid gap-4 pt-5">
            <div className="flex flex-wrap items-end justify-between gap-3">
              <JobsFilters filters={filters} onChange={setFilters} />
              <LiveIndicator status={status} />
            </div>
            {list.error && !list.data ? (
              <RetryableError error={list.error} onRetry={() => void list.refetch()} />
            ) : !list.isPending && !jobs.length ? (
              filtered ? (
                <EmptyState
                  icon={<SearchX />}
                  title="No jobs match these filters"
                  action={
                    <Button variant="outline" onClick={() => setFilters({ state: '', kind: '', q: '' })}>
                      Show all jobs
                    </Button>
                  }
                >
                  Try another state or kind, or search for part of a title.
                </EmptyState>
              ) : (
                <EmptyState icon={<Activity />} title="No jobs yet">
                  {canRun.allowed
                    ? 'Run diagnostics to check the runtime tools and the Docker engine, or start a log self-test to watch live logs. Installs and updates started elsewhere in the console show up here too.'
                    : 'Nothing has run yet. Diagnostics, installs and updates started by operators and admins show up here, with their live logs.'}
                </EmptyState>
              )
            ) : (
              <>
                <div className={list.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
                  <JobsTable jobs={jobs} loading={list.isPending} sort={filters.sort} onSort={(sort) => setFilters({ sort })} />
                </div>
                {list.error ? <ErrorNote error={list.error} /> : null}
                <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
                  <span aria-live="polite">
                    {list.isPending ? 'Loading jobs…' : `${jobs.length.toLocaleString('en')} ${jobs.length === 1 ? 'job' : 'jobs'} shown`}
                  </span>
                  {list.hasNextPage ? (
                    <Button variant="outline" size="sm" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                      {list.isFetchingNextPage ? 'Loading…' : filters.sort === 'created_desc' ? 'Load older' : 'Load newer'}
                    </Button>
                  ) : null}
                </div>
              </>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
