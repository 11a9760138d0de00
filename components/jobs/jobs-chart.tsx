'use client';

import { useRouter } from 'next/navigation';
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
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

interface Point {
  id: string;
  title: string;
  state: JobState;
  seconds: number;
  /** `seconds` in the chart's unit (seconds, minutes or hours, chosen from the longest bar). */
  value: number;
  finishedAt: string;
}

const UNITS = [
  { at: 7200, size: 3600, suffix: 'h' },
  { at: 120, size: 60, suffix: 'm' },
  { at: 0, size: 1, suffix: 's' },
];

/** Finished jobs that ran, oldest to newest, at most MAX_BARS. */
function points(jobs: Job[]): Point[] {
  return jobs
    .filter((j) => j.finishedAt && j.startedAt && COLOURS[j.state])
    .sort((a, b) => Date.parse(b.finishedAt!) - Date.parse(a.finishedAt!))
    .slice(0, MAX_BARS)
    .reverse()
    .map((j) => ({ id: j.id, title: j.title, state: j.state, seconds: (jobElapsedMs(j) ?? 0) / 1000, value: 0, finishedAt: j.finishedAt! }));
}

function withUnit(data: Point[]) {
  const max = Math.max(0, ...data.map((d) => d.seconds));
  const unit = UNITS.find((u) => max >= u.at) ?? UNITS[UNITS.length - 1];
  return { unit, data: data.map((d) => ({ ...d, value: d.seconds / unit.size })) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Run time of the last finished jobs, one bar each, coloured by outcome; a bar opens its job. */
export function JobsChart({ jobs, loading, error }: { jobs: Job[] | undefined; loading: boolean; error: unknown }) {
  const router = useRouter();
  const { unit, data } = withUnit(points(jobs ?? []));
  const ok = data.filter((d) => d.state === 'succeeded').length;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>Recent durations</CardTitle>
          <CardDescription>
            {data.length
              ? `Last ${data.length} finished ${data.length === 1 ? 'job' : 'jobs'} · median ${formatDuration(median(data.map((d) => d.seconds * 1000)))} · ${Math.round((ok / data.length) * 100)}% success`
              : 'How long finished jobs ran, coloured by outcome.'}
          </CardDescription>
        </div>
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground" aria-label="Legend">
          {LEGEND.map((l) => (
            <li key={l.state} className="flex items-center gap-1.5">
              <span aria-hidden className="size-2.5 rounded-sm" style={{ background: COLOURS[l.state] }} />
              {l.label}
            </li>
          ))}
        </ul>
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
          <div className="h-36" role="img" aria-label={`Bar chart of the run time of the last ${data.length} finished jobs`}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: 0 }} barCategoryGap="18%">
                <CartesianGrid vertical={false} stroke="var(--border)" />
                <XAxis dataKey="id" hide />
                <YAxis
                  width={44}
                  tickLine={false}
                  axisLine={false}
                  fontSize={11}
                  tick={{ fill: 'var(--muted-foreground)' }}
                  tickFormatter={(v: number) => `${v}${unit.suffix}`}
                  allowDecimals={false}
                />
                <Tooltip cursor={{ fill: 'var(--muted)' }} content={(p) => <ChartTip active={p.active} payload={p.payload} />} isAnimationActive={false} />
                <Bar
                  dataKey="value"
                  radius={[3, 3, 0, 0]}
                  minPointSize={2}
                  isAnimationActive={false}
                  className="cursor-pointer"
                  onClick={(d) => router.push(jobHref((d.payload as Point).id))}
                >
                  {data.map((d) => (
                    <Cell key={d.id} fill={COLOURS[d.state]} />
                  ))}
                </Bar>
              </BarChart>
            </ResponsiveContainer>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function ChartTip({ active, payload }: { active?: boolean; payload?: ReadonlyArray<{ payload?: unknown }> }) {
  const p = active ? (payload?.[0]?.payload as Point | undefined) : undefined;
  if (!p) return null;
  return (
    <div className="max-w-72 rounded-md border bg-card px-3 py-2 text-xs shadow-md">
      <p className="truncate font-medium">{p.title}</p>
      <p className="text-muted-foreground">
        {p.state} in {formatDuration(p.seconds * 1000)} · {fullTime(p.finishedAt)}
      </p>
    </div>
  );
}
