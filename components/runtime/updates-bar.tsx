'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowUpCircle, CircleAlert, CircleCheck, RefreshCw } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { get } from '@/components/api';
import { errorMessage } from '@/components/error-message';
import { jobsApi } from '@/lib/api/contracts/jobs';
import { stageLabel } from '../jobs/format';
import { jobKey, POLL_MS } from '../jobs/queries';
import { isFinal, jobHref } from '../jobs/view';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { Progress, RetryableError, Skeleton, Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { updatesKey, useRefreshUpdates } from './queries';
import { UpdatesChecked } from './updates-checked';
import { SourcePill } from './updates-source';
import type { UpdatesView } from './view';

/** Why the results are stale, short (for the badge) and in full (for its tooltip); null when fresh. */
export function staleReason(v: UpdatesView): { short: string; full: string } | null {
  if (!v.stale) return null;
  const failed = v.sources.filter((s) => s.error);
  if (failed.length) return { short: 'check failed', full: `${failed.map((s) => `${s.source}: ${s.error}`).join('; ')}. The earlier results are kept.` };
  const never = v.sources.filter((s) => !s.checkedAt);
  if (never.length)
    return {
      short: 'never checked',
      full: `${never.map((s) => s.source).join(', ')} ${never.length === 1 ? 'has' : 'have'} never been checked. Check for updates to look now.`,
    };
  const mins = Math.round(v.ttlSeconds / 60);
  return { short: `older than ${mins} min`, full: `The last check is older than ${mins} minutes; results may be out of date. Check for updates to look now.` };
}

/** A check job, followed until it ends (the socket pushes changes; polled as a fallback). */
function useCheckJob(id: string | null) {
  return useQuery({
    queryKey: jobKey(id ?? 'none'),
    queryFn: ({ signal }) => get(jobsApi.getJob, { params: { id: id! }, signal }),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data && !isFinal(q.state.data.state) ? POLL_MS : false),
  });
}

/** "N updates available", per-source counts, freshness, Check for updates (a check job) and Update All. */
export function UpdatesBar({
  view,
  loading,
  error,
  onRetry,
  onUpdateAll,
  detailsHref,
}: {
  view: UpdatesView | undefined;
  loading: boolean;
  error: unknown;
  onRetry: () => void;
  onUpdateAll: () => void;
  /** Where the full updates table is, when it is not on this view. */
  detailsHref?: string;
}) {
  const can = useCan('packages.write');
  const qc = useQueryClient();
  const router = useRouter();
  const refresh = useRefreshUpdates();
  // The check this user started; otherwise a background check a stale read started.
  const [mine, setMine] = useState<string | null>(null);
  const checkId = mine ?? view?.refreshJobId ?? null;
  const check = useCheckJob(checkId);
  const job = check.data?.id === checkId ? check.data : undefined;
  const running = !!checkId && (!job || !isFinal(job.state));
  const ended = !!job && isFinal(job.state);

  useEffect(() => {
    if (!ended || !job) return;
    void qc.invalidateQueries({ queryKey: updatesKey });
    if (job.id === mine) {
      const opts = { id: `job-end-${job.id}`, action: { label: 'Open job', onClick: () => router.push(jobHref(job.id)) } };
      const pending = (job.result as { pending?: number } | null)?.pending;
      if (job.state === 'succeeded')
        toast.success('Update check finished', {
          ...opts,
          description: pending !== undefined ? `${pending} pending update${pending === 1 ? '' : 's'}` : undefined,
        });
      else toast.error('The update check failed', { ...opts, description: job.error ?? 'See the job log for the reason.' });
      setMine(null);
    }
  }, [ended, job, mine, qc, router]);

  const start = () =>
    refresh.mutate(undefined, {
      onSuccess: (r) => setMine(r.job.id),
      onError: (e) => toast.error('Could not start the update check', { description: errorMessage(e) }),
    });

  const updates = view?.updates ?? [];
  const offered = updates.filter((u) => !u.pinned).length;
  const stale = view ? staleReason(view) : null;
  const busy = refresh.isPending || running;
  const why = can.why ?? (!offered ? (updates.length ? 'Every pending update is pinned.' : 'No updates pending.') : undefined);

  return (
    <Card>
      <CardContent className="grid gap-3 pt-5" data-testid="updates-bar">
        {error && !view ? (
          <RetryableError error={error} onRetry={onRetry} />
        ) : loading && !view ? (
          <div className="flex flex-wrap items-center gap-3" aria-hidden>
            <Skeleton className="h-6 w-44" />
            <Skeleton className="h-5 w-16 rounded-full" />
            <Skeleton className="h-5 w-16 rounded-full" />
            <Skeleton className="ml-auto h-8 w-48" />
          </div>
        ) : view ? (
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <h2 className="inline-flex items-center gap-2 font-semibold" aria-live="polite">
              {updates.length ? <ArrowUpCircle aria-hidden className="size-5 text-primary" /> : <CircleCheck aria-hidden className="size-5 text-success" />}
              {updates.length ? `${updates.length} update${updates.length === 1 ? '' : 's'} available` : 'Up to date'}
            </h2>
            <ul className="flex flex-wrap items-center gap-1.5" aria-label="Updates per source">
              {view.sources.map((s) => (
                <li key={s.source} className="inline-flex items-center gap-1">
                  <SourcePill source={s.source} count={updates.filter((u) => u.source === s.source).length} />
                  {s.error || s.packageErrors ? (
                    <Tip
                      content={
                        s.error
                          ? `Last ${s.source} check failed: ${s.error}${s.source === 'github' ? ' If GitHub cannot be reached from this host, set an API base or a mirror in Settings → GitHub.' : ''}`
                          : `${s.packageErrors} ${s.source} ${s.packageErrors === 1 ? 'package' : 'packages'} could not be checked; their earlier results are kept.`
                      }
                    >
                      <CircleAlert aria-label={`${s.source} check problem`} className="size-4 text-warning" />
                    </Tip>
                  ) : null}
                </li>
              ))}
            </ul>
            <UpdatesChecked view={view} />
            {stale ? (
              <Tip content={stale.full}>
                <Badge variant="warning" data-testid="updates-stale">
                  Stale: {stale.short}
                </Badge>
              </Tip>
            ) : null}
            <div className="ml-auto flex flex-wrap items-center gap-2">
              <Tip content={can.why}>
                <Button variant="outline" size="sm" onClick={start} disabled={!can.allowed || busy}>
                  <RefreshCw aria-hidden className={busy ? 'animate-spin motion-reduce:animate-none' : undefined} />{' '}
                  {busy ? 'Checking for updates…' : 'Check for updates'}
                </Button>
              </Tip>
              <Tip content={why}>
                <Button size="sm" onClick={onUpdateAll} disabled={!can.allowed || !offered}>
                  <ArrowUpCircle aria-hidden /> Update All
                </Button>
              </Tip>
              {detailsHref && updates.length ? (
                <Button asChild variant="ghost" size="sm">
                  <Link href={detailsHref}>See {updates.length === 1 ? 'the update' : `all ${updates.length}`}</Link>
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}
        {running ? (
          <div className="flex items-center gap-3 text-xs text-muted-foreground" role="status">
            <span className="shrink-0">{job ? `Checking for updates: ${stageLabel(job)}` : 'Starting the update check…'}</span>
            <Progress value={job?.progressPercent ?? 0} label="Progress of the update check" className="max-w-xs" />
            {checkId ? (
              <Link href={jobHref(checkId)} className="shrink-0 text-primary hover:underline">
                Open job
              </Link>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
