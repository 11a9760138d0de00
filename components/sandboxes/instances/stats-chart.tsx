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
          <div className="h-40" data-slot="sandbox-stats-chart">
            <ResponsiveContainer width="100%" height="100%">
              <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
                <XAxis dataKey="t" tick={{ fontSize: 10 }} minTickGap={24} />
                <YAxis yAxisId="cpu" tick={{ fontSize: 10 }} unit="%" />
                <YAxis yAxisId="mem" orientation="right" tick={{ fontSize: 10 }} unit=" MiB" />
                <Tooltip />
                <Line yAxisId="cpu" dataKey="cpu" name="CPU %" stroke="var(--primary)" dot={false} isAnimationActive={false} />
                <Line yAxisId="mem" dataKey="mem" name="Memory MiB" stroke="var(--success)" dot={false} isAnimationActive={false} />
              </LineChart>
            </ResponsiveContainer>
          </div>
        </CardContent>
      ) : null}
    </Card>
  );
}
