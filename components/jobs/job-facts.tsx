'use client';

import { Card, CardContent } from '../ui/card';
import { Progress } from '../ui/misc';
import { attemptsText, fullTime, progressTone, relativeTime, shownPercent, stageLabel } from './format';
import { JobDuration } from './job-duration';
import { useNow } from './use-now';
import type { Job } from './view';

function When({ at }: { at: string | null }) {
  if (!at) return <span className="text-muted-foreground">—</span>;
  return (
    <time dateTime={at} title={relativeTime(at)}>
      {fullTime(at)}
    </time>
  );
}

/** Progress with its stage, then who started the job, when it ran and how often it was tried. */
export function JobFacts({ job }: { job: Job }) {
  useNow(30_000);
  const stage = stageLabel(job);
  const facts: [string, React.ReactNode][] = [
    [
      'Created by',
      <span key="by" className="[overflow-wrap:anywhere]">
        {job.createdByLabel}
      </span>,
    ],
    ['Created', <When key="c" at={job.createdAt} />],
    ['Started', <When key="s" at={job.startedAt} />],
    ['Finished', <When key="f" at={job.finishedAt} />],
    ['Duration', <JobDuration key="d" job={job} />],
    [
      'Attempts',
      <span key="a" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {attemptsText(job)}
      </span>,
    ],
  ];
  return (
    <Card>
      <CardContent className="grid gap-5 pt-5">
        <div className="grid gap-2">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="truncate font-medium" title={stage}>
              {stage}
            </span>
            <span className="text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {shownPercent(job)}%
            </span>
          </div>
          <Progress value={shownPercent(job)} label="Job progress" className={progressTone(job.state)} />
        </div>
        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-3 lg:grid-cols-6">
          {facts.map(([k, v]) => (
            <div key={k} className="grid gap-0.5">
              <dt className="text-xs text-muted-foreground">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
