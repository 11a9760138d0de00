'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRight, RefreshCw } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { skillsApi } from '@/lib/api/contracts/skills';
import { get } from '../../api';
import { JobLog } from '../../jobs/job-log';
import { JobRunHead } from '../../jobs/job-log-drawer';
import { useJob } from '../../jobs/queries';
import { useJobStream } from '../../jobs/use-job-stream';
import { isFinal, type Job } from '../../jobs/view';
import { Button, buttonVariants } from '../../ui/button';
import { ErrorNote } from '../../ui/misc';
import { invalidateSkills } from '../queries';
import { type ImportJobResult, skillHref } from '../view';
import { AcknowledgeRetry, OwnerRetry } from './import-retry';

/** The catalog id of a managed slug once the import landed (the list answers within a rescan). */
function useManagedSkillId(slug: string | undefined) {
  return useQuery({
    queryKey: ['skills', 'managed-id', slug],
    queryFn: async ({ signal }) => {
      const list = await get(skillsApi.listSkills, { query: { source: 'managed' }, signal });
      return list.skills.find((s) => s.dir.replace(/\/+$/, '').endsWith(`/${slug}`))?.id ?? null;
    },
    enabled: !!slug,
    refetchInterval: (q) => (q.state.data ? false : 1500),
  });
}

const AMBIGUOUS = /several publishers|pick an owner|ambiguous/i;

/**
 * Follows an import job live (state, progress, log). On success: the version installed and a link
 * to the skill. On a scanner block: the findings and "Acknowledge and import". On an ambiguous
 * ClawHub slug: a publisher picker. Both retry through `onRetry` with the extra input.
 */
export function ImportRun({
  job: initial,
  onRetry,
  retrying,
  canAcknowledge,
}: {
  job: Job;
  onRetry: (extra: { acknowledge?: { reason: string }; ownerHandle?: string; force?: true }) => void;
  retrying: boolean;
  canAcknowledge: boolean;
}) {
  const { data } = useJob(initial.id, { poll: true });
  const job = data ?? initial;
  const stream = useJobStream(initial.id);
  const qc = useQueryClient();
  const final = isFinal(job.state);
  const result = (job.result ?? null) as ImportJobResult | null;
  const ok = job.state === 'succeeded';
  const skillId = useManagedSkillId(ok ? result?.slug : undefined);
  const announced = useRef(false);
  useEffect(() => {
    if (!final || announced.current) return;
    announced.current = true;
    invalidateSkills(qc);
    if (ok)
      toast.success(
        result?.unchanged ? `${result.slug} is already installed with this content` : `Imported ${result?.slug ?? 'the skill'} ${result?.version ?? ''}`.trim(),
      );
  }, [final, ok, qc, result]);

  const blocked = job.state === 'failed' && !!result?.blocked;
  const owners = result?.owners ?? result?.details?.owners ?? [];
  const ambiguous = job.state === 'failed' && !blocked && (result?.code === 'ambiguous_slug' || owners.length > 0 || AMBIGUOUS.test(job.error ?? ''));
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="import-run" data-job-id={job.id} data-state={job.state}>
      <JobRunHead job={job} />
      {ok ? (
        <div
          role="status"
          className="flex flex-wrap items-center gap-3 rounded-md border border-success/40 bg-success/10 px-3 py-2 text-sm"
          data-testid="import-success"
        >
          <span className="text-success">
            {result?.unchanged
              ? `${result.slug} is already at this content (${result.version}); nothing changed.`
              : `Installed ${result?.slug ?? 'the skill'} ${result?.version ?? ''}${result?.previous ? ` (was ${result.previous})` : ''}. Scanner: ${result?.verdict ?? 'n/a'}.`}
          </span>
          {skillId.data ? (
            <Link href={skillHref(skillId.data)} className={buttonVariants({ size: 'sm', className: 'ml-auto' })}>
              Open the skill <ArrowRight aria-hidden />
            </Link>
          ) : result?.slug ? (
            <Link
              href={`/skills?source=managed&q=${encodeURIComponent(result.slug)}`}
              className={buttonVariants({ size: 'sm', variant: 'outline', className: 'ml-auto' })}
            >
              Find it in the list
            </Link>
          ) : null}
        </div>
      ) : null}
      {job.state === 'failed' && !blocked && !ambiguous ? (
        <div className="grid gap-1" data-testid="import-error" data-code={result?.code ?? ''}>
          <ErrorNote error={job.error ?? 'The import failed without a reason; see the log below.'} />
          {result?.hint ? <p className="text-sm text-muted-foreground">{result.hint}</p> : null}
          {result?.code === 'exists' ? (
            <div>
              <Button size="sm" onClick={() => onRetry({ force: true })} disabled={retrying}>
                <RefreshCw aria-hidden /> {retrying ? 'Starting…' : 'Replace with a new version'}
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
      {blocked ? (
        <AcknowledgeRetry
          error={job.error}
          findings={result?.findings ?? []}
          allowed={canAcknowledge}
          busy={retrying}
          onRetry={(reason) => onRetry({ acknowledge: { reason } })}
        />
      ) : null}
      {ambiguous ? <OwnerRetry error={job.error} owners={owners} busy={retrying} onRetry={(ownerHandle) => onRetry({ ownerHandle })} /> : null}
      {job.state === 'canceled' ? <p className="text-sm text-muted-foreground">The import was stopped before it finished; nothing was installed.</p> : null}
      <details open={!final || (job.state === 'failed' && !blocked && !ambiguous)} className="group">
        <summary className="cursor-pointer text-sm font-medium text-muted-foreground hover:text-foreground">Log</summary>
        <div className="mt-2">
          <JobLog jobId={job.id} jobState={job.state} stream={stream} />
        </div>
      </details>
    </div>
  );
}
