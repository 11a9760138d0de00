// The idle sweep's side of artifact collection: a container it is about to remove is collected as
// the instance it is (a maintenance container or an unknown one is not an instance: nothing to keep).
import { systemActor } from '../../auth/actor';
import { hasCode } from '../../core/errors';
import { type InstanceDeps, instanceId, resolve } from '../instances/service';
import { collectOutput } from './collect';

export async function collectBeforeSweep(deps: InstanceDeps, configId: string, sandboxId: string): Promise<void> {
  let r: Awaited<ReturnType<typeof resolve>>;
  try {
    r = await resolve(deps, instanceId(configId, sandboxId));
  } catch (e) {
    if (hasCode(e, 'not_found') || hasCode(e, 'validation')) return;
    throw e;
  }
  await collectOutput(deps, r, { trigger: 'idle_sweep', actor: systemActor });
}
