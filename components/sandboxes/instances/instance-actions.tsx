'use client';

import { Play, RotateCcw, Trash2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../ui/button';
import { Confirm } from '../../ui/dialog';
import { Select } from '../../ui/input';
import { Tip } from '../../ui/misc';
import { useCan } from '../../viewer';
import { useSandboxConfigs } from '../queries';
import { type Instance, useRecycleSandbox, useRemoveSandbox, useStartSandbox } from './queries';

export const instanceHref = (id: string) => `/sandboxes/instances/${encodeURIComponent(id)}`;

/** "Start sandbox" from one of the enabled configs (operators). */
export function StartSandbox() {
  const configs = useSandboxConfigs();
  const { allowed, why } = useCan('sandboxes.run');
  const router = useRouter();
  const enabled = (configs.data?.items ?? []).filter((c) => c.enabled);
  const [pick, setPick] = useState('');
  const start = useStartSandbox();
  const chosen = pick || enabled[0]?.id || '';
  return (
    <div className="flex items-center gap-2">
      <Select aria-label="Config to start from" value={chosen} onChange={(e) => setPick(e.target.value)} disabled={!enabled.length} className="w-48">
        {enabled.length ? null : <option value="">No enabled config</option>}
        {enabled.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Select>
      <Tip content={why ?? (enabled.length ? undefined : 'A config is enabled once its full check passes.')}>
        <Button
          disabled={!allowed || !chosen || start.isPending}
          onClick={() =>
            start.mutate(chosen, {
              onSuccess: (i) =>
                toast.success('Sandbox started', {
                  description: `${i.configName}: ${i.image}`,
                  action: { label: 'Open', onClick: () => router.push(instanceHref(i.id)) },
                }),
              onError: (e) => toast.error('Could not start a sandbox', { description: e.message }),
            })
          }
        >
          <Play aria-hidden /> {start.isPending ? 'Starting…' : 'Start sandbox'}
        </Button>
      </Tip>
    </div>
  );
}

/**
 * Remove, and recycle (a fresh sandbox from the config's current image replaces this one) for a
 * stale sandbox or one that is not running; both behind a confirmation naming what is lost.
 */
export function InstanceActions({
  instance,
  onRemoved,
  onRecycled,
}: {
  instance: Instance;
  onRemoved?: () => void;
  /** With the replacement's id: the old id no longer exists. */
  onRecycled?: (id: string) => void;
}) {
  const { allowed, why } = useCan('sandboxes.run');
  const [confirm, setConfirm] = useState<'remove' | 'recycle' | null>(null);
  const remove = useRemoveSandbox();
  const recycle = useRecycleSandbox();
  const busy = remove.isPending || recycle.isPending;
  const offerRecycle = instance.stale || instance.state !== 'running';
  const short = instance.sandboxId.slice(0, 12);
  const run = async () => {
    const what = confirm;
    try {
      if (what === 'recycle') {
        const r = await recycle.mutateAsync(instance.id);
        const gen = r.instance.imageGeneration;
        toast.success('Sandbox recycled', {
          description: `${r.instance.sandboxId.slice(0, 12)} from ${r.instance.configName} (${gen === null ? 'base image' : `generation ${gen}`}) replaces ${short}.`,
        });
        setConfirm(null);
        onRecycled?.(r.instance.id);
      } else {
        await remove.mutateAsync(instance.id);
        toast.success('Sandbox removed');
        setConfirm(null);
        onRemoved?.();
      }
    } catch (e) {
      toast.error(what === 'recycle' ? 'Could not recycle the sandbox' : 'Could not remove the sandbox', { description: (e as Error).message });
    }
  };
  return (
    <div className="flex justify-end gap-1">
      {offerRecycle ? (
        <Tip content={why ?? (instance.stale ? 'Start a fresh sandbox from the active skill image in its place.' : undefined)}>
          <Button size="sm" variant="outline" disabled={!allowed || busy} onClick={() => setConfirm('recycle')} aria-label={`Recycle sandbox ${short}`}>
            <RotateCcw aria-hidden /> Recycle
          </Button>
        </Tip>
      ) : null}
      <Tip content={why}>
        <Button size="sm" variant="outline" disabled={!allowed || busy} onClick={() => setConfirm('remove')} aria-label={`Remove sandbox ${short}`}>
          <Trash2 aria-hidden /> Remove
        </Button>
      </Tip>
      <Confirm
        open={!!confirm}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={confirm === 'recycle' ? 'Recycle this sandbox?' : 'Remove this sandbox?'}
        description={
          confirm === 'recycle' ? (
            <>
              A fresh sandbox from {instance.configName}
              {instance.activeImageGeneration === null ? '' : ` (skill image generation ${instance.activeImageGeneration})`} is started, then the sandbox{' '}
              {short} is removed with its volumes: its /workspace (input and output artifacts), any running process and any open terminal are lost. The new
              sandbox has a new id.
            </>
          ) : (
            <>
              The sandbox {short} from {instance.configName} is stopped and removed with its volumes: every file in /workspace (input and output artifacts), any
              running process and any open terminal are lost.
            </>
          )
        }
        confirmLabel={confirm === 'recycle' ? 'Recycle' : 'Remove sandbox'}
        busy={busy}
        onConfirm={() => void run()}
      />
    </div>
  );
}
