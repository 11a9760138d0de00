'use client';

import { useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PACKAGE_JOB_NAMES } from '@/lib/packages/job-names';
import { parsePackageSpec } from '@/lib/runtime/spec';
import { stageLabel } from '../jobs/format';
import { jobKey, useJob } from '../jobs/queries';
import { StateChip } from '../jobs/state-chip';
import { isFinal, type Job, jobHref } from '../jobs/view';
import { Progress } from '../ui/misc';
import { JobEndWatcher } from './job-drawer';
import { pkgKey, type UpdateAllRow } from './view';

/** The package a package job works on (install/update/uninstall params carry its spec; GitHub jobs its name), as a pkgKey. */
export function jobPackageKey(job: Pick<Job, 'params'> & Partial<Pick<Job, 'kind'>>): string | null {
  // GitHub jobs carry the installed name (update/uninstall/rollback) instead of a spec.
  const name = (job.params as { name?: unknown } | null)?.name;
  if (job.kind?.startsWith('github.') && typeof name === 'string') return pkgKey('github', name);
  const spec = (job.params as { spec?: unknown } | null)?.spec;
  if (typeof spec !== 'string') return null;
  try {
    const p = parsePackageSpec(spec);
    return pkgKey(p.manager, p.name);
  } catch {
    return null;
  }
}

interface Tracked {
  id: string;
  key: string | null;
  /** Children of Update All: the parent's outcome is the one toast. */
  quiet: boolean;
}

function outcomeToast(job: Job, open: () => void) {
  const opts = { id: `job-end-${job.id}`, action: { label: 'Open job', onClick: open } };
  if (job.kind === PACKAGE_JOB_NAMES.updateAll) {
    const r = job.result as { succeeded?: number; failed?: number; items?: UpdateAllRow[] } | null;
    const total = r?.items?.length ?? 0;
    if (job.state === 'succeeded') toast.success(`Update All finished: ${r?.succeeded ?? total} updated`, opts);
    else if (job.state === 'failed')
      toast.error(r ? `Update All: ${r.failed} of ${total} failed` : 'Update All failed', { ...opts, description: job.error ?? undefined });
    else toast.warning('Update All was canceled', opts);
    return;
  }
  const to = (job.result as { toVersion?: string | null } | null)?.toVersion;
  if (job.state === 'succeeded') toast.success(`${job.title}: done`, { ...opts, description: to ? `Now at ${to}` : undefined });
  else if (job.state === 'failed') toast.error(`${job.title}: failed`, { ...opts, description: job.error ?? 'See the job log for the reason.' });
  else toast.warning(`${job.title}: canceled`, opts);
}

/**
 * Package jobs started from this page: each is followed until it ends (then the lists refresh and
 * one toast says how it went); `active` maps a package to its running job so rows can show it.
 */
export function usePackageJobs() {
  const qc = useQueryClient();
  const router = useRouter();
  const [tracked, setTracked] = useState<Tracked[]>([]);
  const ref = useRef(tracked);
  ref.current = tracked;

  const track = useCallback((job: Job, opts: { quiet?: boolean } = {}) => {
    if (isFinal(job.state)) return;
    setTracked((t) => (t.some((x) => x.id === job.id) ? t : [...t, { id: job.id, key: jobPackageKey(job), quiet: !!opts.quiet }]));
  }, []);

  const done = useCallback(
    (id: string) => {
      const entry = ref.current.find((t) => t.id === id);
      const job = qc.getQueryData<Job>(jobKey(id));
      if (entry && !entry.quiet && job) outcomeToast(job, () => router.push(jobHref(id)));
      setTracked((t) => t.filter((x) => x.id !== id));
    },
    [qc, router],
  );

  const active = useMemo(() => {
    const m = new Map<string, string>();
    for (const t of tracked) if (t.key) m.set(t.key, t.id);
    return m;
  }, [tracked]);

  const watchers = tracked.map((t) => <JobEndWatcher key={t.id} id={t.id} onDone={done} />);
  return { active, track, watchers };
}

/** A running job on a row: state chip and a thin progress bar, with the stage as a tooltip. */
export function JobProgressChip({ id, label }: { id: string; label: string }) {
  const { data: job } = useJob(id, { poll: false });
  if (!job) return <StateChip state="queued" />;
  const pct = job.state === 'succeeded' ? 100 : Math.round(job.progressPercent);
  return (
    <span className="inline-flex items-center gap-2" title={stageLabel(job)} data-testid="row-job" data-state={job.state}>
      <Link
        href={jobHref(id)}
        aria-label={`${job.state}: open the job of ${label}`}
        className="rounded-full focus-visible:outline-2 focus-visible:outline-ring"
      >
        <StateChip state={job.state} />
      </Link>
      {!isFinal(job.state) ? <Progress value={pct} label={`Progress of ${label}`} className="h-1.5 w-16" /> : null}
    </span>
  );
}
