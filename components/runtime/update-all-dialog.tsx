'use client';

import { useQueries } from '@tanstack/react-query';
import { ArrowUpCircle, Lock } from 'lucide-react';
import Link from 'next/link';
import { useId, useMemo, useState } from 'react';
import { get } from '@/components/api';
import { jobsApi } from '@/lib/api/contracts/jobs';
import { stageLabel } from '../jobs/format';
import { useJobsLive } from '../jobs/live-status';
import { jobKey, keepEnded, POLL_MS } from '../jobs/queries';
import { StateChip } from '../jobs/state-chip';
import { isFinal, type Job, jobHref } from '../jobs/view';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ErrorNote, Progress } from '../ui/misc';
import { useApplyAll } from './queries';
import { SourcePill } from './updates-source';
import type { ApplyAllResponse, UpdateItem } from './view';

interface Planned {
  spec: string;
  from: string;
  to: string;
}

/** One package of a running Update All: its child job's state, progress and outcome. */
function RunRow({ item, job }: { item: Planned; job: Job | undefined }) {
  const state = job?.state ?? 'queued';
  const to = (job?.result as { toVersion?: string | null } | null)?.toVersion;
  return (
    <li className="grid gap-1.5 py-2.5" data-spec={item.spec} data-state={state}>
      <div className="flex flex-wrap items-center gap-2">
        <SourcePill source={item.spec.split(':')[0]} />
        <span className="font-mono text-xs font-medium">{item.spec.slice(item.spec.indexOf(':') + 1)}</span>
        <span className="font-mono text-xs text-muted-foreground">
          {item.from} → {item.to}
        </span>
        <span className="ml-auto">
          <StateChip state={state} />
        </span>
      </div>
      {state === 'running' && job ? (
        <div className="flex items-center gap-2 text-xs text-muted-foreground">
          <Progress value={job.progressPercent} label={`Progress of ${item.spec}`} className="h-1.5" />
          <span className="shrink-0">{stageLabel(job)}</span>
        </div>
      ) : null}
      {state === 'succeeded' ? <p className="text-xs text-success">Updated to {to ?? item.to}</p> : null}
      {state === 'failed' || state === 'canceled' ? (
        <p className="text-xs text-destructive">
          {job?.error ?? (state === 'canceled' ? 'Canceled before it finished.' : 'Failed without a reason.')}{' '}
          {job ? (
            <Link href={jobHref(job.id)} className="text-primary hover:underline">
              Open its log
            </Link>
          ) : null}
        </p>
      ) : null}
    </li>
  );
}

/**
 * The live part: each child job followed until it ends, plus an overall bar. Closes only on user
 * action. The children come from the start response and are then kept current by /ws/jobs, which
 * patches the job cache; each is read once more on mount (an event sent before the cache held it
 * would be lost), and polled only while the socket is down.
 */
function RunView({ run, onClose }: { run: ApplyAllResponse; onClose: () => void }) {
  const live = useJobsLive();
  const items = ((run.job.params as { items?: Planned[] } | null)?.items ?? []).slice().sort((a, b) => a.spec.localeCompare(b.spec));
  // package.update children carry their spec; github.update children the installed name.
  const specOf = (params: unknown) => {
    const p = (params ?? {}) as { spec?: string; name?: string };
    return p.spec ?? `github:${p.name}`;
  };
  const childBySpec = new Map(run.children.map((c) => [specOf(c.params), c.id]));
  const childById = new Map(run.children.map((c) => [c.id, c as Job]));
  const ids = items.map((i) => childBySpec.get(i.spec) ?? '');
  const jobs = useQueries({
    queries: ids.map((id) => ({
      queryKey: jobKey(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => get(jobsApi.getJob, { params: { id }, signal }),
      enabled: !!id,
      initialData: childById.get(id),
      initialDataUpdatedAt: 0,
      structuralSharing: keepEnded,
      refetchOnWindowFocus: !live,
      refetchInterval: (q: { state: { data?: Job } }) => (!live && q.state.data && !isFinal(q.state.data.state) ? POLL_MS : false),
    })),
  });
  const data = jobs.map((q) => q.data as Job | undefined);
  const ended = data.filter((j) => j && isFinal(j.state)).length;
  const succeeded = data.filter((j) => j?.state === 'succeeded').length;
  const overall = items.length ? data.reduce((sum, j) => sum + (!j ? 0 : isFinal(j.state) ? 100 : j.progressPercent), 0) / items.length : 100;
  const done = ended === items.length;

  return (
    <div className="grid gap-3" data-testid="update-all-run" data-done={done}>
      <div className="grid gap-1.5">
        <div className="flex items-center justify-between text-sm">
          <span role="status" aria-live="polite">
            {done
              ? `Finished: ${succeeded} updated${items.length - succeeded ? `, ${items.length - succeeded} failed` : ''}`
              : `${ended} of ${items.length} done`}
          </span>
          <Link href={jobHref(run.job.id)} className="text-primary hover:underline">
            Open the Update All job
          </Link>
        </div>
        <Progress value={overall} label="Overall progress of Update All" />
      </div>
      <ul className="max-h-96 divide-y overflow-y-auto" aria-label="Packages being updated">
        {items.map((item, i) => (
          <RunRow key={item.spec} item={item} job={data[i]} />
        ))}
      </ul>
      <div className="flex items-center justify-end gap-3">
        {done ? null : <span className="text-xs text-muted-foreground">Closing does not stop the updates.</span>}
        <Button variant={done ? 'default' : 'outline'} onClick={onClose}>
          {done ? 'Done' : 'Hide'}
        </Button>
      </div>
    </div>
  );
}

/** Update All: choose the updates, apply, and watch each one finish in the same dialog. */
export function UpdateAllDialog({
  open,
  onOpenChange,
  updates,
  onStarted,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  updates: UpdateItem[];
  onStarted: (r: ApplyAllResponse) => void;
}) {
  const offered = useMemo(() => updates.filter((u) => !u.pinned), [updates]);
  const pinned = useMemo(() => updates.filter((u) => u.pinned), [updates]);
  const [selected, setSelected] = useState<Set<string>>(() => new Set(offered.map((u) => u.spec)));
  const [run, setRun] = useState<ApplyAllResponse | null>(null);
  const apply = useApplyAll();
  const id = useId();
  const chosen = offered.filter((u) => selected.has(u.spec)).map((u) => u.spec);
  const allChecked = offered.length > 0 && chosen.length === offered.length;

  const toggle = (spec: string, on: boolean) =>
    setSelected((s) => {
      const n = new Set(s);
      if (on) n.add(spec);
      else n.delete(spec);
      return n;
    });

  const start = () =>
    apply.mutate(chosen, {
      onSuccess: (r) => {
        setRun(r);
        onStarted(r);
      },
    });

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Update All"
      description={
        run ? 'Each package is updated as its own job; failures never stop the others.' : 'Choose the updates to apply. Pinned packages are left alone.'
      }
      className="max-w-2xl"
    >
      {run ? (
        <RunView run={run} onClose={() => onOpenChange(false)} />
      ) : (
        <div className="grid gap-3">
          <label className="inline-flex items-center gap-2 border-b pb-2 text-sm font-medium">
            <input
              type="checkbox"
              className="size-4 accent-primary"
              checked={allChecked}
              ref={(el) => {
                if (el) el.indeterminate = chosen.length > 0 && !allChecked;
              }}
              onChange={(e) => setSelected(new Set(e.target.checked ? offered.map((u) => u.spec) : []))}
              disabled={!offered.length}
            />
            Select all ({chosen.length} of {offered.length})
          </label>
          <ul className="grid max-h-80 gap-1 overflow-y-auto" aria-label="Updates to apply">
            {offered.map((u) => (
              <li key={u.spec}>
                <label className="flex flex-wrap items-center gap-2 rounded px-1 py-1 text-sm hover:bg-muted/60">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={selected.has(u.spec)}
                    onChange={(e) => toggle(u.spec, e.target.checked)}
                    aria-describedby={`${id}-${u.spec}`}
                  />
                  <SourcePill source={u.source} />
                  <span className="font-mono text-xs font-medium">{u.name}</span>
                  <span id={`${id}-${u.spec}`} className="font-mono text-xs text-muted-foreground">
                    {u.current} → {u.latest}
                  </span>
                  {u.prerelease ? <Badge variant="warning">pre-release</Badge> : null}
                </label>
              </li>
            ))}
            {pinned.map((u) => (
              <li key={u.spec} className="flex flex-wrap items-center gap-2 px-1 py-1 text-sm text-muted-foreground" aria-disabled>
                <input type="checkbox" className="size-4" disabled checked={false} aria-label={`${u.name} is pinned`} />
                <SourcePill source={u.source} />
                <span className="font-mono text-xs">{u.name}</span>
                <span className="font-mono text-xs">
                  {u.current} → {u.latest}
                </span>
                <Badge variant="secondary" title={u.pinReason ?? undefined}>
                  <Lock aria-hidden className="size-3" /> pinned{u.pinReason ? `: ${u.pinReason}` : ''}
                </Badge>
              </li>
            ))}
          </ul>
          {apply.error ? <ErrorNote error={apply.error} /> : null}
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button onClick={start} disabled={!chosen.length || apply.isPending}>
              <ArrowUpCircle aria-hidden /> {apply.isPending ? 'Starting…' : `Apply ${chosen.length} update${chosen.length === 1 ? '' : 's'}`}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
