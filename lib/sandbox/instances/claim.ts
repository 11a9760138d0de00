// "Find or start" of a principal's sandbox, once across every replica: two first execs of one agent
// (on one replica or two) end up in one sandbox, since the second finds what the first started.
import type { Actor } from '../../auth/actor';
import { lockKeyOf } from '../../core/lock-key';
import type { Principal } from './principal';
import { type InstanceDeps, runningFor, startInstance } from './service';

const local = new WeakMap<InstanceDeps, Map<string, Promise<unknown>>>();

/** Runs `fn` after every earlier call with the same key in this process (the stand-in when no database lock is given). */
function localLock<T>(deps: InstanceDeps, key: string, fn: () => Promise<T>): Promise<T> {
  let chains = local.get(deps);
  if (!chains) local.set(deps, (chains = new Map()));
  const prev = chains.get(key) ?? Promise.resolve();
  const next = prev.catch(() => undefined).then(fn);
  const tail = next.catch(() => undefined);
  chains.set(key, tail);
  void tail.then(() => chains.get(key) === tail && chains.delete(key));
  return next;
}

/** The principal's running sandbox of the config, else one started now; its instance id. */
export async function runningOrStart(deps: InstanceDeps, actor: Actor, configId: string, principal: Principal): Promise<string> {
  const name = `sandbox:${principal}:${configId}`;
  const findOrStart = async () => {
    const [running] = await runningFor(deps, configId, principal);
    return running ?? (await startInstance(deps, actor, configId, principal)).id;
  };
  return deps.lock ? deps.lock(lockKeyOf(name), findOrStart) : localLock(deps, name, findOrStart);
}
