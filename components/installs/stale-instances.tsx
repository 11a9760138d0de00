'use client';

import { useQuery } from '@tanstack/react-query';
import { RotateCcw, Timer } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { sandboxInstancesApi } from '@/lib/api/contracts/sandbox-instances';
import type { ConfigImageOut } from '@/lib/installs/schema';
import { staleReason } from '@/lib/sandbox/instances/rollout-standing';
import { get } from '../api';
import { instanceHref } from '../sandboxes/instances/instance-actions';
import { type Instance, instancesKey, useRecycleSandbox } from '../sandboxes/instances/queries';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Confirm } from '../ui/dialog';
import { RetryableError, Skeleton, Tip } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useCan } from '../viewer';

const ROLLOUT: Record<ConfigImageOut['rollout'], string> = {
  next_turn: 'a stale sandbox is recycled at its next command or terminal (its /workspace is lost)',
  new_session: 'running sandboxes keep their image until recycled; new sessions start from the active one',
};

/** Under the config's key, so a recycle (which refetches every sandbox list) refreshes it too. */
function useConfigInstances(configId: string) {
  return useQuery({
    queryKey: [...instancesKey, 'config', configId],
    queryFn: ({ signal }) => get(sandboxInstancesApi.listSandboxes, { query: { configId }, signal }),
  });
}

/** Running sandboxes of the config on an older image than its active snapshot, each with a Recycle; and the config's rollout. */
export function StaleInstances({ configId, configName, rollout }: { configId: string; configName: string; rollout?: ConfigImageOut['rollout'] }) {
  const q = useConfigInstances(configId);
  const { allowed, why } = useCan('sandboxes.run');
  const recycle = useRecycleSandbox();
  const [target, setTarget] = useState<Instance | null>(null);
  const stale = (q.data?.items ?? []).filter((i) => i.stale && i.state === 'running');
  const short = (i: Instance) => i.sandboxId.slice(0, 12);
  return (
    <section className="grid gap-3" data-testid="stale-instances" data-count={q.data ? stale.length : undefined} aria-labelledby={`stale-${configId}`}>
      <h3 id={`stale-${configId}`} className="flex items-center gap-2 font-medium">
        <Timer aria-hidden className="size-4" /> Stale instances
      </h3>
      {rollout ? (
        <p className="text-sm text-muted-foreground" data-testid="rollout-setting" data-rollout={rollout}>
          Skill rollout: <Badge variant="outline">{rollout}</Badge> — {ROLLOUT[rollout]}.
        </p>
      ) : null}
      {q.error && !q.data ? (
        <RetryableError error={q.error} onRetry={() => void q.refetch()} />
      ) : q.isPending ? (
        <Skeleton className="h-10 w-full" />
      ) : stale.length === 0 ? (
        <p className="text-sm text-muted-foreground">Every running sandbox of {configName} is on the active image.</p>
      ) : (
        <ul className="grid divide-y rounded-md border">
          {stale.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm" data-testid={`stale-instance-${i.sandboxId}`}>
              <div className="grid min-w-0 flex-1 gap-0.5">
                <Link href={instanceHref(i.id)} className="truncate font-mono hover:underline">
                  {short(i)}
                </Link>
                <span className="text-xs text-muted-foreground">
                  {staleReason({ imageGeneration: i.imageGeneration, activeGeneration: i.activeImageGeneration, stale: i.stale })} · started{' '}
                  <RelativeTime iso={i.createdAt} />
                  {i.startedBy ? ` by ${i.startedBy}` : ''}
                </span>
              </div>
              <Tip content={why}>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={!allowed || recycle.isPending}
                  onClick={() => setTarget(i)}
                  aria-label={`Recycle sandbox ${short(i)}`}
                >
                  <RotateCcw aria-hidden /> Recycle
                </Button>
              </Tip>
            </li>
          ))}
        </ul>
      )}
      <Confirm
        open={!!target}
        onOpenChange={(o) => !o && setTarget(null)}
        title={target ? `Recycle sandbox ${short(target)}?` : 'Recycle this sandbox?'}
        description={
          target ? (
            <>
              A fresh sandbox from {configName} (skill image generation {target.activeImageGeneration}) is started, then <code>{short(target)}</code> is removed
              with its volumes: its /workspace, any running process and any open terminal are lost. The new sandbox has a new id.
            </>
          ) : (
            ''
          )
        }
        confirmLabel="Recycle"
        busy={recycle.isPending}
        onConfirm={() => {
          if (!target) return;
          const old = short(target);
          recycle.mutate(target.id, {
            onSuccess: (r) => {
              toast.success('Sandbox recycled', { description: `${r.instance.sandboxId.slice(0, 12)} replaces ${old}.` });
              setTarget(null);
            },
            onError: (e) => toast.error('Could not recycle the sandbox', { description: e.message }),
          });
        }}
      />
    </section>
  );
}
