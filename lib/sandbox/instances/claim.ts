// "Find or start" of a principal's sandbox, once across every replica: two first execs of one agent
// (on one replica or two) end up in one sandbox, since the second finds what the first started.
import type { Actor } from '../../auth/actor';
import { lockKeyOf } from '../../core/lock-key';
import type { Principal } from './principal';
import { type InstanceDeps, runningFor, startInstance } from './service';

const local = new WeakMap<InstanceDeps, Map<string, Promise<unknown>>>();

/**
 * A database lock holds a pooled connection for the whole start, and the start itself queries the
 * pool: this many locked starts at once per process, so the rest of the pool stays free for them.
 */
const MAX_LOCKED_STARTS = 3;
const slots = new WeakMap<InstanceDeps, { busy: number; waiting: (() => void)[] }>();

async function withSlot<T>(deps: InstanceDeps, fn: () => Promise<T>): Promise<T> {
  let s = slots.get(deps);
  if (!s) slots.set(deps, (s = { busy: 0, waiting: [] }));
  const slot = s;
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
  const lock = deps.lock;
  return lock ? withSlot(deps, () => lock(lockKeyOf(name), findOrStart)) : localLock(deps, name, findOrStart);
}
