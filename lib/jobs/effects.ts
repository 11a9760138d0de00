import type { JobEventHub } from './hub';
import { isFinal } from './queue';
import type { JobRegistry } from './registry';
import type { JobRow } from './types';

/**
 * Calls `fn` when a job of any kind declaring `effect` ends, on whichever replica it ran: the
 * hub's state events carry every replica's jobs. Returns the unsubscribe function.
 */
export function onJobsFinished(hub: JobEventHub, registry: JobRegistry, effect: string, fn: (job: JobRow) => void): () => void {
  return hub.onJobState((job) => {
    if (isFinal(job.state) && registry.get(job.kind)?.kind.effects?.includes(effect)) fn(job);
  });
}
