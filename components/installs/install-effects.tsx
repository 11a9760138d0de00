'use client';

import { TriangleAlert } from 'lucide-react';
import { describePrincipal, principalOf } from '@/lib/sandbox/instances/principal';
import { useInstances } from '../sandboxes/instances/queries';
import type { ConfigCardView } from '../sandboxes/queries';

const short = (id: string) => id.slice(0, 12);

/**
 * What an install into the chosen configs does to the sandboxes running now: each becomes stale
 * (a new snapshot goes active), and the config's rollout says when and how it is replaced.
 */
export function InstallEffects({ configs }: { configs: readonly ConfigCardView[] }) {
  const instances = useInstances();
  if (!configs.length) return null;
  if (instances.isPending) return <p className="text-xs text-muted-foreground">Looking for running sandboxes of the chosen configs…</p>;
  const running = (id: string) => (instances.data?.items ?? []).filter((i) => i.configId === id && i.state === 'running');
  const hit = configs.map((c) => ({ c, boxes: running(c.id) })).filter((x) => x.boxes.length);
  if (!hit.length)
    return (
      <p className="text-xs text-muted-foreground" data-testid="install-effects" data-stale={0}>
        No sandbox of the chosen configs is running: nothing becomes stale.
      </p>
    );
  return (
    <div
      role="note"
      className="grid gap-1.5 rounded-md border border-warning bg-warning/10 px-3 py-2 text-sm"
      data-testid="install-effects"
      data-stale={hit.reduce((n, x) => n + x.boxes.length, 0)}
    >
      <p className="flex items-center gap-2 font-medium">
        <TriangleAlert aria-hidden className="size-4" /> Running sandboxes become stale
      </p>
      <ul className="grid gap-1.5">
        {hit.map(({ c, boxes }) => {
          const nextTurn = (c.config as { skillRollout?: string }).skillRollout !== 'new_session';
          return (
            <li key={c.id} className="grid gap-0.5">
              <span>
                <strong>{c.name}</strong>: {boxes.length} running —{' '}
                {boxes.map((b) => `${short(b.sandboxId)} (${describePrincipal(principalOf({ 'skilldock.principal': b.principal ?? '' }))})`).join(', ')}
              </span>
              <span className="text-xs text-muted-foreground">
                {nextTurn
                  ? 'Rollout next_turn: each is recycled at its next command or terminal open — a new sandbox from the new snapshot, and everything its old /workspace held is gone. Its terminal closes until then.'
                  : 'Rollout new_session: each keeps its current image and files until someone recycles it; only sandboxes started after the install get the skill.'}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
