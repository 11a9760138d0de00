// What one sandbox service serialises in this process, built once by the composition root and
// carried in InstanceDeps (a copy of the deps made with a spread keeps the same locks).
import type { SandboxInfo } from '../backend';

/** Locked starts at once: a database lock holds a pooled connection for the whole start, which itself queries the pool. */
export const MAX_LOCKED_STARTS = 3;

export class InstanceLocks {
  /** Calls per key, each after the earlier ones (the stand-in when no database lock is given). */
  readonly chains = new Map<string, Promise<unknown>>();
  /** Locked starts running now, and those waiting for a place. */
  readonly starts = { busy: 0, waiting: [] as (() => void)[] };
  /** Recycles in flight per sandbox: concurrent callers share one. */
  readonly recycles = new Map<string, Promise<SandboxInfo>>();
}
