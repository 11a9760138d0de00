'use client';

import { Play } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { minimumRole } from '@/lib/auth/permissions';
import { PageHeader } from '../../shell/shell';
import { TerminalPanel } from '../../terminal/terminal-panel';
import { Badge } from '../../ui/badge';
import { Button, buttonVariants } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { RetryableError, Skeleton, Tip } from '../../ui/misc';
import { RelativeTime } from '../../ui/time';
import { useCan, useViewer } from '../../viewer';
import { SessionArtifacts } from '../artifacts/session-artifacts';
import { BACKEND_LABEL } from '../config-card';
import { ArtifactsBrowser } from './artifacts';
import { InstanceActions, instanceHref } from './instance-actions';
import { StaleChip, StateBadge } from './instances-page';
import { type Instance, useInstance, useStartSandbox } from './queries';
import { RunCommand } from './run-command';
import { principalWords, sharedWith } from './shared-note';
import { StatsChart } from './stats-chart';

/** Starts a fresh sandbox from this one's config and goes to it (the terminal's empty state). */
function StartFromConfig({ instance }: { instance: Instance }) {
  const { allowed, why } = useCan('sandboxes.run');
  const start = useStartSandbox();
  const router = useRouter();
  return (
    <Tip content={why}>
      <Button
        variant="outline"
        disabled={!allowed || start.isPending}
        onClick={() =>
          start.mutate(instance.configId, {
            onSuccess: (i) => router.push(instanceHref(i.id)),
            onError: (e) => toast.error('Could not start a sandbox', { description: e.message }),
          })
        }
      >
        <Play aria-hidden /> {start.isPending ? 'Starting…' : `Start a sandbox from ${instance.configName}`}
      </Button>
    </Tip>
  );
}

/** One sandbox: its details, live CPU/memory, a terminal, artifacts and (admins) a command box. */
export function InstancePage({ id }: { id: string }) {
  const q = useInstance(id);
  const router = useRouter();
  const terminal = useCan('sandboxes.exec');
  const viewer = useViewer();
  const i = q.data;
  const shared = i ? sharedWith(i.principal, viewer.userId) : null;
  return (
    <>
      <PageHeader
        title={i ? `${i.configName} · ${i.sandboxId.slice(0, 12)}` : 'Sandbox'}
        description="A sandbox started from a config; removing it loses its files."
        actions={
          <div className="flex gap-2">
            <Link className={buttonVariants({ variant: 'outline' })} href="/sandboxes/instances">
              All instances
            </Link>
            {i ? (
              <InstanceActions instance={i} onRemoved={() => router.push('/sandboxes/instances')} onRecycled={(id) => router.replace(instanceHref(id))} />
            ) : null}
          </div>
        }
      />
      {q.error ? (
        <RetryableError error={q.error} onRetry={() => void q.refetch()} />
      ) : !i ? (
        <Skeleton className="h-40 w-full" />
      ) : (
        <div className="grid gap-4">
          <Card>
            <CardContent className="pt-6">
              <dl className="grid grid-cols-2 gap-3 text-sm md:grid-cols-4">
                {[
                  [
                    'Config',
                    <Link key="c" href="/sandboxes">
                      {i.configName}
                    </Link>,
                  ],
                  [
                    'Backend',
                    <Badge key="b" variant="outline">
                      {BACKEND_LABEL[i.backend]}
                    </Badge>,
                  ],
                  [
                    'Image',
                    <span key="img" className="flex items-center gap-1.5">
                      <span className="truncate">{i.image}</span>
                      <StaleChip instance={i} />
                    </span>,
                  ],
                  ['State', <StateBadge key="s" state={i.state} />],
                  ['Owner', <span key="o">{shared ? principalWords(shared) : 'you'}</span>],
                  ['Started', <RelativeTime key="t" iso={i.createdAt} />],
                  ['Last activity', <RelativeTime key="a" iso={i.lastActivityAt} empty="none recorded" />],
                  ['Started by', i.startedBy ?? '—'],
                  [
                    'Sandbox id',
                    <code key="i" className="break-all text-xs">
                      {i.sandboxId}
                    </code>,
                  ],
                ].map(([k, v]) => (
                  <div key={k as string}>
                    <dt className="text-xs text-muted-foreground">{k}</dt>
                    <dd className="truncate">{v}</dd>
                  </div>
                ))}
              </dl>
            </CardContent>
          </Card>
          <StatsChart instance={i} />
          <TerminalPanel
            instanceId={i.id}
            running={i.state === 'running'}
            canOpen={terminal.allowed}
            requiredRole={minimumRole('sandboxes.exec')}
            startAction={<StartFromConfig instance={i} />}
            sharedWith={shared}
          />
          <ArtifactsBrowser id={i.id} />
          <SessionArtifacts instanceId={i.id} />
          <RunCommand id={i.id} sharedWith={shared} />
        </div>
      )}
    </>
  );
}
