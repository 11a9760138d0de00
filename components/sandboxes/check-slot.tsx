'use client';

import { useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { checkSandboxConfigAction } from '@/app/(console)/sandboxes/actions';
import { useJob } from '../jobs/queries';
import { useJobStream } from '../jobs/use-job-stream';
import { useJobStartedToast } from '../jobs/use-start-job';
import { isFinal, jobHref } from '../jobs/view';
import { Button } from '../ui/button';
import { ErrorNote, Progress, Tip } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { ProbeList, probesOf } from './check-report';
import { ConnectionTest, type ConnectionTestProps } from './connection-test';
import { type ConfigCardView, sandboxesKey } from './queries';

/** Follows one running check: its progress, the last log lines, and the probes once it ends. */
function LiveCheck({ jobId, onEnded }: { jobId: string; onEnded: () => void }) {
  const job = useJob(jobId, { poll: true });
  const stream = useJobStream(jobId);
  const final = job.data ? isFinal(job.data.state) : false;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once when the job reaches a final state
  useEffect(() => {
    if (final) onEnded();
  }, [final]);
  const lines = stream.store.lines.slice(-12);
  return (
    <div className="grid gap-2" data-slot="sandbox-check-live" aria-live="polite">
      <div className="flex items-center justify-between gap-2 text-xs">
        <span>{final ? `Check ${job.data?.state}` : `Checking… ${job.data?.progressStage ?? ''}`}</span>
        <Link className="underline" href={jobHref(jobId)}>
          Open job
        </Link>
      </div>
      {final ? null : <Progress value={job.data?.progressPercent ?? 0} label="Full check progress" />}
      {stream.count && !final ? (
        <pre className="max-h-40 overflow-auto rounded bg-muted p-2 text-[11px] leading-4">{lines.map((l) => l.line).join('\n')}</pre>
      ) : null}
      {final ? <ProbeList probes={probesOf(job.data?.result)} label="Full check report" /> : null}
      {job.data?.error ? <ErrorNote error={new Error(job.data.error)} /> : null}
    </div>
  );
}

/**
 * "Last check: failed 5 minutes ago · last passed 2 days ago": the last check's time says how it
 * ended, and the last pass is shown only when it is another, earlier check.
 */
export function LastCheck({ at, passedAt, report }: { at: string | null; passedAt: string | null; report: unknown }) {
  if (!at) return <>No full check has run yet; the config stays disabled until one passes.</>;
  const stored = (report as { passed?: unknown } | null)?.passed;
  const passed = typeof stored === 'boolean' ? stored : passedAt === at;
  return (
    <>
      Last check: <span className={passed ? undefined : 'text-destructive'}>{passed ? 'passed' : 'failed'}</span> <RelativeTime iso={at} />
      {passed ? null : passedAt ? (
        <>
          {' '}
          · last passed <RelativeTime iso={passedAt} />
        </>
      ) : (
        ' · never passed'
      )}
    </>
  );
}

/** The full check on a config card: the button (admins), live progress, and the last report. */
export function CheckReportSlot({ config }: { config: ConfigCardView }) {
  const qc = useQueryClient();
  const { allowed, why } = useCan('sandboxes.write');
  const [jobId, setJobId] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const started = useJobStartedToast();
  const check = useOperation(checkSandboxConfigAction, {
    input: () => ({ params: { id: config.id } }),
    onSuccess: (job) => {
      started(job, 'Full check started');
      setJobId(job.id);
      setRunning(true);
    },
  });
  const stored = probesOf(config.lastCheckReport);
  return (
    <div data-slot="sandbox-check-report" data-config={config.name} className="grid gap-2 text-xs">
      <div className="text-muted-foreground" data-testid="check-times">
        <LastCheck at={config.lastCheckAt} passedAt={config.lastCheckPassedAt} report={config.lastCheckReport} />
      </div>
      {jobId ? (
        <LiveCheck
          key={jobId}
          jobId={jobId}
          onEnded={() => {
            setRunning(false);
            void qc.invalidateQueries({ queryKey: sandboxesKey });
          }}
        />
      ) : (
        <ProbeList probes={stored} label="Last full check report" />
      )}
      <div>
        <Tip content={why}>
          <Button size="sm" variant="outline" disabled={!allowed || running || check.isPending} onClick={() => check.mutate()}>
            <ShieldCheck aria-hidden /> {running ? 'Checking…' : 'Run full check'}
          </Button>
        </Tip>
      </div>
      {check.error ? <ErrorNote error={check.error} /> : null}
    </div>
  );
}

/** The editor's slot for "Test connection" against the values being edited. */
export function ConnectionTestSlot(props: ConnectionTestProps) {
  return <ConnectionTest {...props} />;
}
