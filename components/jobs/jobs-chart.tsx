'use client';

import { useRouter } from 'next/navigation';
import { DurationBarChart, type DurationPoint, durationStats, OutcomeLegend } from '../charts/duration-chart';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { ErrorNote, Skeleton } from '../ui/misc';
import { formatDuration, fullTime, jobElapsedMs } from './format';
import { type Job, type JobState, jobHref } from './view';

const MAX_BARS = 30;
const COLOURS: Partial<Record<JobState, string>> = { succeeded: 'var(--success)', failed: 'var(--destructive)', canceled: 'var(--warning)' };
const LEGEND: { state: JobState; label: string }[] = [
  { state: 'succeeded', label: 'Success' },
  { state: 'failed', label: 'Failure' },
  { state: 'canceled', label: 'Cancellation' },
];

interface Point extends DurationPoint {
  state: JobState;
  finishedAt: string;
}

/** Finished jobs that ran, oldest to newest, at most MAX_BARS. */
function points(jobs: Job[]): Point[] {
  return jobs
    .filter((j) => j.finishedAt && j.startedAt && COLOURS[j.state])
    .sort((a, b) => Date.parse(b.finishedAt!) - Date.parse(a.finishedAt!))
    .slice(0, MAX_BARS)
    .reverse()
    .map((j) => ({ id: j.id, title: j.title, state: j.state, seconds: (jobElapsedMs(j) ?? 0) / 1000, finishedAt: j.finishedAt! }));
}

/** Run time of the last finished jobs, one bar each, coloured by outcome; a bar opens its job. */
export function JobsChart({ jobs, loading, error }: { jobs: Job[] | undefined; loading: boolean; error: unknown }) {
  const router = useRouter();
  const data = points(jobs ?? []);
  const stats = durationStats(data);
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>Recent durations</CardTitle>
          <CardDescription>
            {data.length
              ? `Last ${data.length} finished ${data.length === 1 ? 'job' : 'jobs'} · median ${formatDuration(stats.medianMs)} · ${stats.successPercent}% success`
              : 'How long finished jobs ran, coloured by outcome.'}
          </CardDescription>
        </div>
        <OutcomeLegend items={LEGEND} colours={COLOURS as Record<string, string>} />
      </CardHeader>
      <CardContent>
        {error ? (
          <ErrorNote error={error} />
        ) : loading ? (
          <Skeleton className="h-36 w-full" />
        ) : !data.length ? (
          <p className="flex h-36 items-center justify-center rounded-md border border-dashed text-sm text-muted-foreground">
            Durations appear here once jobs finish.
          </p>
        ) : (
          <DurationBarChart
            points={data}
            colours={COLOURS as Record<string, string>}
            className="h-36"
            label={`Bar chart of the run time of the last ${data.length} finished jobs`}
            onOpen={(id) => router.push(jobHref(id))}
            tip={(p) => (
              <p className="text-muted-foreground">
                {p.state} in {formatDuration(p.seconds * 1000)} · {fullTime(p.finishedAt)}
              </p>
            )}
          />
        )}
      </CardContent>
    </Card>
  );
}
