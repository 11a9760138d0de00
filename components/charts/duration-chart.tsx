'use client';

import type * as React from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { cn } from '../ui/cn';

/** One bar: a run that ended, how long it took and how it ended (the key of its colour). */
export interface DurationPoint {
  id: string;
  title: string;
  state: string;
  seconds: number;
}

/** Colours by outcome; they are CSS variables, so light and dark themes each draw their own. */
export type OutcomeColours = Record<string, string>;

const FALLBACK_COLOUR = 'var(--muted-foreground)';

// The axis counts in the unit that keeps the longest bar readable: seconds, minutes past two, hours past two.
const UNITS = [
  { at: 7200, size: 3600, suffix: 'h' },
  { at: 120, size: 60, suffix: 'm' },
  { at: 0, size: 1, suffix: 's' },
];

/** The axis unit for a set of durations in seconds. */
export function durationUnit(seconds: number[]) {
  const max = Math.max(0, ...seconds);
  return UNITS.find((u) => max >= u.at) ?? UNITS[UNITS.length - 1];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** What a chart's summary line says: how many runs, their median duration and the share that succeeded. */
export function durationStats(points: DurationPoint[]) {
  const ok = points.filter((p) => p.state === 'succeeded').length;
  return {
    count: points.length,
    medianMs: points.length ? median(points.map((p) => p.seconds * 1000)) : 0,
    successPercent: points.length ? Math.round((ok / points.length) * 100) : 0,
  };
}

/** The colour key of a chart: a swatch and a label per outcome, in a list named "Legend". */
export function OutcomeLegend({
  items,
  colours,
  className = 'flex flex-wrap gap-x-3 gap-y-1',
}: {
  items: readonly { state: string; label: string }[];
  colours: OutcomeColours;
  className?: string;
}) {
  return (
    <ul className={cn('text-xs text-muted-foreground', className)} aria-label="Legend">
      {items.map((l) => (
        <li key={l.state} className="flex items-center gap-1.5">
          <span aria-hidden className="size-2.5 rounded-sm" style={{ background: colours[l.state] }} />
          {l.label}
        </li>
      ))}
    </ul>
  );
}

/**
 * A bar per run, oldest to newest, its height the run's duration on a labelled axis and its colour
 * the outcome; hovering shows `tip`, clicking a bar calls `onOpen` with its id. `label` is the
 * summary a screen reader hears for the whole chart.
 */
export function DurationBarChart<P extends DurationPoint>({
  points,
  colours,
  label,
  className,
  maxBarSize,
  onOpen,
  tip,
}: {
  points: P[];
  colours: OutcomeColours;
  label: string;
  /** The plot's height, e.g. `h-36`. */
  className: string;
  maxBarSize?: number;
  onOpen: (id: string) => void;
  /** The tooltip's lines under the run's title. */
  tip: (point: P) => React.ReactNode;
}) {
  const unit = durationUnit(points.map((p) => p.seconds));
  const data = points.map((p) => ({ point: p, id: p.id, value: p.seconds / unit.size }));
  return (
    <div className={className} role="img" aria-label={label}>
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
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            content={(t) => {
              const p = t.active ? (t.payload?.[0]?.payload as { point: P } | undefined)?.point : undefined;
              return p ? <DurationTip title={p.title}>{tip(p)}</DurationTip> : null;
            }}
            isAnimationActive={false}
          />
          <Bar
            dataKey="value"
            radius={[3, 3, 0, 0]}
            minPointSize={2}
            maxBarSize={maxBarSize}
            isAnimationActive={false}
            className="cursor-pointer"
            onClick={(d) => onOpen((d.payload as { id: string }).id)}
          >
            {data.map((d) => (
              <Cell key={d.id} fill={colours[d.point.state] ?? FALLBACK_COLOUR} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** The tooltip of one bar: the run's title, then the chart's own lines. */
export function DurationTip({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="max-w-72 rounded-md border bg-card px-3 py-2 text-xs shadow-md">
      <p className="truncate font-medium">{title}</p>
      {children}
    </div>
  );
}
