'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Decision } from '@/lib/policy/types';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import type { ExecLogRow } from './queries';
import { DECISION_COLOUR, DECISION_LABEL, DECISIONS } from './view';

const BUCKETS = 24;
const STEPS_MS = [60_000, 5 * 60_000, 15 * 60_000, 3_600_000, 6 * 3_600_000, 86_400_000];

type Bucket = { start: number; label: string } & Record<Decision, number>;

/** Rows counted per decision in at most BUCKETS equal time slices, the slice size picked from the span. */
export function bucketize(rows: ExecLogRow[]): Bucket[] {
  if (!rows.length) return [];
  const times = rows.map((r) => Date.parse(r.at));
  const min = Math.min(...times);
  const max = Math.max(...times);
  const step = STEPS_MS.find((s) => (max - min) / s < BUCKETS) ?? STEPS_MS[STEPS_MS.length - 1];
  const first = Math.floor(min / step) * step;
  const n = Math.floor((max - first) / step) + 1;
  const out: Bucket[] = Array.from({ length: n }, (_, i) => {
    const start = first + i * step;
    const d = new Date(start);
    const label = step >= 86_400_000 ? d.toLocaleDateString() : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    return { start, label, allow: 0, deny: 0, approval: 0 };
  });
  rows.forEach((r, i) => {
    out[Math.floor((times[i] - first) / step)][r.decision]++;
  });
  return out;
}

/** Decisions over time, stacked: a rise in denials after a profile change shows at a glance. */
export function ExecLogChart({ rows }: { rows: ExecLogRow[] }) {
  const data = bucketize(rows);
  const counts = DECISIONS.map((d) => ({ d, n: rows.filter((r) => r.decision === d).length }));
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <CardTitle>Decisions over time</CardTitle>
          <CardDescription>{counts.map((c) => `${c.n} ${DECISION_LABEL[c.d].toLowerCase()}`).join(' · ')}</CardDescription>
        </div>
        <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground" aria-label="Legend">
          {DECISIONS.map((d) => (
            <li key={d} className="flex items-center gap-1.5">
              <span aria-hidden className="size-2.5 rounded-sm" style={{ background: DECISION_COLOUR[d] }} />
              {DECISION_LABEL[d]}
            </li>
          ))}
        </ul>
      </CardHeader>
      <CardContent>
        {data.length ? (
          <div className="h-36" role="img" aria-label={`Stacked bar chart of ${rows.length} exec decisions over time`}>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: 0 }} barCategoryGap="15%">
                <CartesianGrid vertical={false} stroke="var(--border)" />
                <XAxis dataKey="label" tickLine={false} axisLine={false} fontSize={11} tick={{ fill: 'var(--muted-foreground)' }} minTickGap={24} />
                <YAxis width={32} tickLine={false} axisLine={false} fontSize={11} tick={{ fill: 'var(--muted-foreground)' }} allowDecimals={false} />
                <Tooltip
                  cursor={{ fill: 'var(--muted)' }}
                  isAnimationActive={false}
                  contentStyle={{ background: 'var(--card)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }}
                />
                {DECISIONS.map((d) => (
                  <Bar key={d} dataKey={d} name={DECISION_LABEL[d]} stackId="d" fill={DECISION_COLOUR[d]} isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
        ) : (
          <p className="flex h-36 items-center justify-center rounded-md border border-dashed text-sm text-muted-foreground">No execs to chart.</p>
        )}
      </CardContent>
    </Card>
  );
}
