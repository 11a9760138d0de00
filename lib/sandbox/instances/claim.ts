// "Find or start" of a principal's sandbox, once across every replica: two first execs of one agent
// (on one replica or two) end up in one sandbox, since the second finds what the first started.
import type { Actor } from '../../auth/actor';
import { lockKeyOf } from '../../core/lock-key';
import { MAX_LOCKED_STARTS } from './locks';
import type { Principal } from './principal';
import { type InstanceDeps, runningFor, startInstance } from './service';

/** At most MAX_LOCKED_STARTS locked starts at once per service, so the rest of the pool stays free for them. */
async function withSlot<T>(deps: InstanceDeps, fn: () => Promise<T>): Promise<T> {
  const slot = deps.locks.starts;
  if (slot.busy >= MAX_LOCKED_STARTS) await new Promise<void>((r) => slot.waiting.push(r));
  else slot.busy += 1;
  try {
    return await fn();
  } finally {
    const next = slot.waiting.shift();
    if (next) next();
    else slot.busy -= 1;
  }
}

/** Runs `fn` after every earlier call with the same key in this process (the stand-in when no database lock is given). */
function localLock<T>(deps: InstanceDeps, key: string, fn: () => Promise<T>): Promise<T> {
  const chains = deps.locks.chains;
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
  const lock = deps.lock;
  return lock ? withSlot(deps, () => lock(lockKeyOf(name), findOrStart)) : localLock(deps, name, findOrStart);
}
