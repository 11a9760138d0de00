'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useCallback, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { PACKAGE_JOB_NAMES } from '@/lib/packages/job-names';
import { jobKey } from '../jobs/queries';
import { isFinal, type Job, jobHref } from '../jobs/view';
import { Confirm } from '../ui/dialog';
import { JobDrawer, JobEndWatcher } from './job-drawer';
import { type GithubJobInput, useGithubJob } from './queries';
import type { GithubOverrides } from './view';

interface Tracked {
  id: string;
  /** The installed name (update/uninstall/rollback) or the repository (install) the job works on. */
  name?: string;
  repo?: string;
}

interface Takeover {
  spec: string;
  overrides?: GithubOverrides;
  /** The job's error text, which names the bin/ entries and their owners. */
  reason: string;
}

/** A failed install that stopped because bin/ names belong to another package (binary_conflict, 409). */
export function isBinaryConflict(job: Job): boolean {
  return job.kind === PACKAGE_JOB_NAMES.githubInstall && job.state === 'failed' && /binary_conflict|bin\/ names already in use|\b409\b/i.test(job.error ?? '');
}

function targetOf(job: Job): Omit<Tracked, 'id'> {
  const p = (job.params ?? {}) as { name?: unknown; repo?: unknown };
  return { name: typeof p.name === 'string' ? p.name : undefined, repo: typeof p.repo === 'string' ? p.repo.toLowerCase() : undefined };
}

/**
 * The GitHub tab's jobs: each started job opens the log drawer and is followed until it ends (then the
 * lists refresh and one toast says how it went). A binary_conflict failure offers "Take over".
 */
export function useGithubJobs() {
  const qc = useQueryClient();
  const router = useRouter();
  const [tracked, setTracked] = useState<Tracked[]>([]);
  const [drawer, setDrawer] = useState<{ job: Job; open: boolean } | null>(null);
  const [takeover, setTakeover] = useState<Takeover | null>(null);
  const ref = useRef(tracked);
  ref.current = tracked;

  const onStarted = useCallback((job: Job) => {
    setDrawer({ job, open: true });
    if (!isFinal(job.state)) setTracked((t) => (t.some((x) => x.id === job.id) ? t : [...t, { id: job.id, ...targetOf(job) }]));
  }, []);
  const mutation = useGithubJob(onStarted);

  const done = useCallback(
    (id: string) => {
      const job = qc.getQueryData<Job>(jobKey(id));
      setTracked((t) => t.filter((x) => x.id !== id));
      if (!job) return;
      const opts = { id: `job-end-${id}`, action: { label: 'Open job', onClick: () => router.push(jobHref(id)) } };
      if (job.state === 'succeeded') toast.success(`${job.title}: done`, opts);
      else if (job.state === 'canceled') toast.warning(`${job.title}: canceled`, opts);
      else if (isBinaryConflict(job)) {
        const p = job.params as { repo: string; tag?: string; overrides?: GithubOverrides };
        setTakeover({ spec: `github:${p.repo}${p.tag ? `@${p.tag}` : ''}`, overrides: p.overrides, reason: job.error ?? '' });
        toast.error(`${job.title}: its programs’ names are taken`, { ...opts, description: 'Confirm the takeover to replace them.' });
      } else toast.error(`${job.title}: failed`, { ...opts, description: job.error ?? 'See the job log for the reason.' });
    },
    [qc, router],
  );

  /** The running job of an installed package, matched by name or repository. */
  const activeFor = useCallback((name: string, repo: string) => tracked.find((t) => t.name === name || t.repo === repo.toLowerCase())?.id, [tracked]);
  const installing = useMemo(() => new Set(tracked.map((t) => t.repo).filter(Boolean) as string[]), [tracked]);

  const start = useCallback(
    (input: GithubJobInput, what: string) =>
      mutation.mutate(input, { onError: (e) => toast.error(`Could not start: ${what}`, { description: errorMessage(e) }) }),
    [mutation],
  );

  const elements = (
    <>
      {tracked.map((t) => (
        <JobEndWatcher key={t.id} id={t.id} onDone={done} />
      ))}
      {drawer ? (
        <JobDrawer key={drawer.job.id} job={drawer.job} open={drawer.open} onOpenChange={(open) => setDrawer((d) => (d ? { ...d, open } : d))} />
      ) : null}
      <Confirm
        open={!!takeover}
        onOpenChange={(o) => !o && setTakeover(null)}
        title="Take over these programs?"
        description={
          <div className="grid gap-2">
            <p>{takeover?.reason}</p>
            <p>
              Installing <code className="font-mono">{takeover?.spec}</code> with takeover points those <code className="font-mono">bin/</code> names at the new
              package; the package that owns them now loses them from PATH.
            </p>
          </div>
        }
        confirmLabel="Take over"
        busy={mutation.isPending}
        onConfirm={() => {
          if (takeover)
            start(
              { action: 'install', spec: takeover.spec, ...(takeover.overrides ? { overrides: takeover.overrides } : {}), takeover: true },
              `install ${takeover.spec}`,
            );
          setTakeover(null);
        }}
      />
    </>
  );

  return { start, pending: mutation.isPending, activeFor, installing, elements };
}
