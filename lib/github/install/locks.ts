import type { LockRequest } from '@/db/client';

/** Takes locks every replica respects: the database handle (advisory locks on PostgreSQL). */
export interface GithubLocks {
  withLocks<T>(locks: readonly LockRequest[], fn: () => Promise<T>): Promise<T>;
}

/** FNV-1a, folded into [2^30, 2^31) so it stays clear of the small fixed lock keys (migrations, job claims). */
function lockKey(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % 0x40000000) + 0x40000000;
}

/** Held shared by every install, update, rollback and uninstall; Repair holds it exclusively, so it never runs beside them. */
export const GITHUB_JOBS_LOCK = lockKey('github:jobs');

/** The locks a GitHub job holds from start to end: the shared jobs lock (exclusive for Repair) and its repository's. */
export function githubJobLocks(opts: { repo?: string; exclusive?: boolean }): LockRequest[] {
  return [{ key: GITHUB_JOBS_LOCK, shared: !opts.exclusive }, ...(opts.repo ? [{ key: lockKey(`github-repo:${opts.repo.toLowerCase()}`) }] : [])];
}

/** The installed name and every bin/ name a change touches: two packages never switch the same name at once. */
export function nameLocks(name: string, bins: readonly string[]): LockRequest[] {
  return [{ key: lockKey(`github-name:${name}`) }, ...bins.map((b) => ({ key: lockKey(`github-bin:${b}`) }))];
}

/** Runs `fn` under the name and bin locks when the caller gave a lock provider (jobs always do). */
export function withNameLocks<T>(locks: GithubLocks | undefined, name: string, bins: readonly string[], fn: () => Promise<T>): Promise<T> {
  return locks ? locks.withLocks(nameLocks(name, bins), fn) : fn();
}
