'use client';

import { ArrowUpCircle, RefreshCw, ShieldAlert } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { SHEET } from '../../jobs/job-log-drawer';
import type { Job } from '../../jobs/view';
import { Button } from '../../ui/button';
import { Confirm, Dialog } from '../../ui/dialog';
import { RetryableError, Skeleton, Tip } from '../../ui/misc';
import { RelativeTime } from '../../ui/time';
import { useCan } from '../../viewer';
import { VerdictChip } from '../chips';
import { DiffBody } from '../detail/version-diff';
import { PolicySelect } from './policy-select';
import { useApplyUpdates, useCheckUpdates, useSkillUpdateDiff } from './queries';

const short = (ref: string) => (/^[0-9a-f]{40,64}$/.test(ref) ? ref.slice(0, 12) : ref);

/** One skill's waiting update: installed → newer version, the new version's scanner verdict, its diff; Update (confirmed) starts a job. */
export function UpdatePanel({ slug, onClose, onJob }: { slug: string; onClose: () => void; onJob: (job: Job) => void }) {
  const q = useSkillUpdateDiff(slug);
  const apply = useApplyUpdates();
  const check = useCheckUpdates();
  const can = useCan('skills.write');
  const [confirm, setConfirm] = useState(false);
  const d = q.data;
  const c = d?.candidate ?? null;
  const critical = c ? c.verdict === 'critical' || c.verdict === 'error' : false;
  const start = (kind: 'apply' | 'check') => {
    const op = kind === 'apply' ? apply : check;
    op.mutate([slug], {
      onSuccess: (job) => {
        toast.success(kind === 'apply' ? `Updating ${slug}` : `Checking ${slug} for updates`, { description: job.title });
        onJob(job);
        if (kind === 'apply') onClose();
      },
      onError: (e) => toast.error(kind === 'apply' ? 'The update did not start' : 'The check did not start', { description: e.message }),
    });
  };
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={`Update ${slug}`} description={d ? `From ${d.source}` : undefined} className={SHEET}>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4" data-testid="update-panel" data-slug={slug}>
        {q.error && !d ? <RetryableError error={q.error} onRetry={() => void q.refetch()} /> : null}
        {!d && !q.error ? <Skeleton className="h-24 w-full" /> : null}
        {d ? (
          <>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Installed</dt>
              <dd data-testid="update-installed">
                {d.version} <span className="font-mono text-xs text-muted-foreground">{short(d.installedRef)}</span>
              </dd>
              <dt className="text-muted-foreground">Newer version</dt>
              <dd className="font-mono text-xs" data-testid="update-latest">
                {c ? short(c.ref) : d.status === 'available' ? short(d.latestRef ?? '') : 'none waiting'}
              </dd>
              <dt className="text-muted-foreground">Its scan</dt>
              <dd data-testid="update-verdict" data-verdict={c?.verdict ?? ''}>
                {c ? <VerdictChip verdict={c.verdict} counts={{ critical: c.critical, warn: 0 }} /> : '—'}
              </dd>
              <dt className="text-muted-foreground">Checked</dt>
              <dd>
                <RelativeTime iso={d.checkedAt} empty="never" />
              </dd>
              <dt className="self-center text-muted-foreground">Policy</dt>
              <dd>
                <PolicySelect target={{ slug }} value={d.policy} inherited={d.effectivePolicy} disabled={!can.allowed} />
              </dd>
            </dl>
            {critical ? (
              <p className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm" data-testid="update-critical">
                <ShieldAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
                The scanner found critical issues in this version. It is never applied automatically, and Update refuses it; import it with an acknowledgement
                if it is really wanted.
              </p>
            ) : null}
            {c ? (
              <section className="grid grid-cols-[minmax(0,1fr)] gap-2" aria-label="Changes" data-testid="update-diff">
                <h3 className="text-sm font-medium">
                  Changes ({c.files.length} file{c.files.length === 1 ? '' : 's'})
                </h3>
                <DiffBody diff={{ a: d.version, b: short(c.ref), files: c.files, textDiffs: c.textDiffs }} />
                {c.truncated ? <p className="text-xs text-muted-foreground">Some diffs were left out to keep the stored size bounded.</p> : null}
              </section>
            ) : d.error ? (
              <p className="text-sm text-muted-foreground">{d.error}</p>
            ) : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Tip content={can.why}>
                <Button variant="outline" disabled={!can.allowed || check.isPending} onClick={() => start('check')} data-testid="update-check-one">
                  <RefreshCw aria-hidden /> Check again
                </Button>
              </Tip>
              <Tip content={can.why ?? (critical ? 'The scan of this version is critical' : undefined)}>
                <Button disabled={!can.allowed || !c || critical || apply.isPending} onClick={() => setConfirm(true)} data-testid="update-apply-one">
                  <ArrowUpCircle aria-hidden /> Update
                </Button>
              </Tip>
            </div>
            <Confirm
              open={confirm}
              onOpenChange={setConfirm}
              destructive={false}
              title={`Update ${slug} to ${c ? short(c.ref) : ''}?`}
              description={`${slug} is imported again at ${c ? short(c.ref) : 'the newer version'} as a new store version (${d.version} stays for rollback). Sandboxes with it installed are marked updatable and follow through the usual rollout.`}
              confirmLabel="Update"
              busy={apply.isPending}
              onConfirm={() => start('apply')}
            />
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
