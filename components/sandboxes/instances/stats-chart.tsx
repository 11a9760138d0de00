'use client';

import { useEffect, useState } from 'react';
import { Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { ErrorNote } from '../../ui/misc';
import { type Instance, useInstanceStats } from './queries';

const KEEP = 40;
const mib = (b: number) => Math.round((b / 1048576) * 10) / 10;

interface Point {
  t: string;
  cpu: number;
  mem: number;
}

/** The two lines, one per axis; the legend is drawn from the same list, so it names every line. */
const SERIES = [
  { key: 'cpu', name: 'CPU %', colour: 'var(--primary)', axis: 'left' },
  { key: 'mem', name: 'Memory MiB', colour: 'var(--success)', axis: 'right' },
] as const;

/** The sampled points as two lines (CPU on the left axis, memory on the right) under their legend. */
export function StatsPlot({ points }: { points: Point[] }) {
  return (
    <div className="grid gap-2">
      <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground" aria-label="Legend">
        {SERIES.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5" data-series={s.key}>
            <span aria-hidden className="h-0.5 w-3 rounded" style={{ background: s.colour }} />
            {s.name} ({s.axis} axis)
          </li>
        ))}
      </ul>
      <div className="h-40" data-slot="sandbox-stats-chart">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <XAxis dataKey="t" tick={{ fontSize: 10 }} minTickGap={24} />
            <YAxis yAxisId="cpu" tick={{ fontSize: 10 }} unit="%" />
            <YAxis yAxisId="mem" orientation="right" tick={{ fontSize: 10 }} unit=" MiB" />
            <Tooltip />
            {SERIES.map((s) => (
              <Line key={s.key} yAxisId={s.key} dataKey={s.key} name={s.name} stroke={s.colour} dot={false} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}

/** Live CPU and memory of a running Docker sandbox, sampled every few seconds while the page is visible. */
export function StatsChart({ instance }: { instance: Instance }) {
  const live = instance.backend === 'docker' && instance.state === 'running';
  const stats = useInstanceStats(instance.id, live);
  const [points, setPoints] = useState<Point[]>([]);
  const s = stats.data;
  useEffect(() => {
    if (!s) return;
    setPoints((p) => [...p, { t: new Date(s.at).toLocaleTimeString(), cpu: s.cpuPercent, mem: mib(s.memoryBytes) }].slice(-KEEP));
  }, [s]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>CPU and memory</CardTitle>
        <CardDescription>
          {!live
            ? instance.backend === 'docker'
              ? 'Shown while the sandbox runs.'
              : 'Only Docker sandboxes report CPU and memory.'
            : s
              ? `CPU ${s.cpuPercent}% · memory ${mib(s.memoryBytes)} MiB${s.memoryLimitBytes ? ` of ${mib(s.memoryLimitBytes)} MiB` : ''} · ${s.pids ?? '?'} processes`
              : 'Sampling…'}
        </CardDescription>
      </CardHeader>
      {live ? (
        <CardContent>
          {stats.error ? <ErrorNote error={stats.error} /> : null}
          <StatsPlot points={points} />
        </CardContent>
      ) : null}
    </Card>
  );
}
