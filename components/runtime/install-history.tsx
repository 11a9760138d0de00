'use client';

import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { packagesApi } from '@/lib/api/contracts/packages';
import { PACKAGE_JOB_NAMES } from '@/lib/packages/job-names';
import { get } from '../api';
import { DurationBarChart, durationStats, OutcomeLegend } from '../charts/duration-chart';
import { formatDuration, fullTime } from '../jobs/format';
import { StateChip } from '../jobs/state-chip';
import { isFinal, type JobState, jobHref } from '../jobs/view';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { EmptyState, RetryableError, Skeleton } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import type { HistoryView } from './view';

/** One package job as GET /api/v1/packages/history returns it. */
export type PackageHistoryItem = HistoryView['items'][number];

// Under ['packages'], so the page's refresh after every package job also refreshes this card.
export const packageHistoryKey = ['packages', 'history'] as const;
const LIMIT = 100;
const MAX_BARS = 30;
const LIST = 10;

const COLOURS: Record<string, string> = {
  succeeded: 'var(--success)',
  failed: 'var(--destructive)',
  canceled: 'var(--warning)',
  running: 'var(--primary)',
  queued: 'var(--muted-foreground)',
};
const LEGEND = [
  { state: 'succeeded', label: 'Succeeded' },
  { state: 'failed', label: 'Failed' },
  { state: 'canceled', label: 'Canceled' },
];
const KIND_LABEL: Record<string, string> = {
  [PACKAGE_JOB_NAMES.install]: 'Install',
  [PACKAGE_JOB_NAMES.uninstall]: 'Uninstall',
  [PACKAGE_JOB_NAMES.update]: 'Update',
  [PACKAGE_JOB_NAMES.updateAll]: 'Update all',
  [PACKAGE_JOB_NAMES.installDeps]: 'Install deps',
  [PACKAGE_JOB_NAMES.updateCheck]: 'Update check',
};
export const kindLabel = (kind: string) => KIND_LABEL[kind] ?? kind.replace(/^package\./, '');

interface Point extends PackageHistoryItem {
  seconds: number;
}

/** Jobs that ran to an end, oldest to newest (x = time order), at most MAX_BARS. */
function chartData(items: PackageHistoryItem[]): Point[] {
  return items
    .filter((i) => i.durationMs !== null)
    .slice(0, MAX_BARS)
    .reverse()
    .map((i) => ({ ...i, seconds: (i.durationMs ?? 0) / 1000 }));
}

/** Recent package jobs: a bar per job's duration coloured by outcome, and the last few as links. */
export function InstallHistoryCard() {
  const router = useRouter();
  const q = useQuery({
    queryKey: packageHistoryKey,
    queryFn: ({ signal }) => get(packagesApi.packageHistory, { query: { limit: LIMIT }, signal }),
    // While a package job is queued or running, keep its row and duration current.
    refetchInterval: (query) => (query.state.data?.items.some((i) => !isFinal(i.state)) ? 5000 : false),
  });
  const items = q.data?.items ?? [];
  const data = chartData(items);
  const stats = durationStats(data);

  return (
    <Card data-testid="install-history">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>Install history</CardTitle>
          <CardDescription>
            {data.length
              ? `Last ${data.length} finished package ${data.length === 1 ? 'job' : 'jobs'} · median ${formatDuration(stats.medianMs)} · ${stats.successPercent}% succeeded`
              : 'How long installs, updates and uninstalls took, and how they ended.'}
          </CardDescription>
        </div>
        {data.length ? <OutcomeLegend items={LEGEND} colours={COLOURS} className="flex gap-3" /> : null}
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
        {q.error && !q.data ? (
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
        ) : q.isPending ? (
          <div className="grid gap-3" role="status" aria-busy="true" aria-label="Loading install history">
            <Skeleton className="h-32 w-full" />
            {Array.from({ length: 3 }, (_, i) => (
              <Skeleton key={i} className="h-5 w-full" />
            ))}
          </div>
        ) : !items.length ? (
          <EmptyState icon={<History />} title="No package jobs yet — install something above">
            Installs, updates and uninstalls appear here with how long they took.
          </EmptyState>
        ) : (
          <>
            {data.length ? (
              <DurationBarChart
                points={data}
                colours={COLOURS}
                className="h-32"
                maxBarSize={40}
                label={`Bar chart of how long the last ${data.length} package jobs took`}
                onOpen={(id) => router.push(jobHref(id))}
                tip={(p) => (
                  <>
                    <p className="text-muted-foreground">
                      {kindLabel(p.kind)} · {p.state} in {formatDuration(p.seconds * 1000)}
                    </p>
                    <p className="text-muted-foreground">
                      by {p.createdBy} · {fullTime(p.createdAt)}
                    </p>
                  </>
                )}
              />
            ) : (
              <p className="flex h-20 items-center justify-center rounded-md border border-dashed text-sm text-muted-foreground">
                Durations appear here once a package job finishes.
              </p>
            )}
            <ul className="grid grid-cols-[minmax(0,1fr)] divide-y rounded-md border" aria-label="Recent package jobs">
              {items.slice(0, LIST).map((i) => (
                <li key={i.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm" data-testid="history-row" data-state={i.state}>
                  <StateChip state={i.state as JobState} />
                  <span className="w-24 shrink-0 text-xs text-muted-foreground">{kindLabel(i.kind)}</span>
                  <Link
                    href={jobHref(i.id)}
                    className="min-w-0 flex-1 basis-48 truncate font-medium text-primary underline-offset-4 hover:underline"
                    title={i.title}
                    data-slot="history-title"
                  >
                    {i.title}
                  </Link>
                  <span className="text-xs text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {i.durationMs !== null ? formatDuration(i.durationMs) : isFinal(i.state) ? '—' : 'in progress'}
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {i.createdBy} · <RelativeTime iso={i.createdAt} />
                  </span>
                </li>
              ))}
            </ul>
            {items.length > LIST ? (
              <p className="text-xs text-muted-foreground">
                Showing the last {LIST} of {items.length}.{' '}
                <Link href="/jobs" className="text-primary underline-offset-4 hover:underline">
                  All jobs
                </Link>
              </p>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
