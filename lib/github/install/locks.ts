import type { LockRequest } from '@/db/client';
import { lockKeyOf } from '../../core/lock-key';

/** Takes locks every replica respects: the database handle (advisory locks on PostgreSQL). */
export interface GithubLocks {
  withLocks<T>(locks: readonly LockRequest[], fn: () => Promise<T>): Promise<T>;
}

/** Held shared by every install, update, rollback and uninstall; Repair holds it exclusively, so it never runs beside them. */
export const GITHUB_JOBS_LOCK = lockKeyOf('github:jobs');

/** The locks a GitHub job holds from start to end: the shared jobs lock (exclusive for Repair) and its repository's. */
export function githubJobLocks(opts: { repo?: string; exclusive?: boolean }): LockRequest[] {
  return [{ key: GITHUB_JOBS_LOCK, shared: !opts.exclusive }, ...(opts.repo ? [{ key: lockKeyOf(`github-repo:${opts.repo.toLowerCase()}`) }] : [])];
}

/** The installed name and every bin/ name a change touches: two packages never switch the same name at once. */
export function nameLocks(name: string, bins: readonly string[]): LockRequest[] {
  return [{ key: lockKeyOf(`github-name:${name}`) }, ...bins.map((b) => ({ key: lockKeyOf(`github-bin:${b}`) }))];
}

/** Runs `fn` under the name and bin locks when the caller gave a lock provider (jobs always do). */
export function withNameLocks<T>(locks: GithubLocks | undefined, name: string, bins: readonly string[], fn: () => Promise<T>): Promise<T> {
  return locks ? locks.withLocks(nameLocks(name, bins), fn) : fn();
}
