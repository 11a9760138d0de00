import type { Database } from '@/db/client';
import type { Role } from './permissions';
import { USERS_CHANNEL } from './user-events';
import { getUser } from './users';

/** What a request needs to know about a signed-in user. */
export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  sessionsValidAfter: Date;
}

export interface UserCacheOptions {
  maxEntries?: number;
  /** Upper bound on staleness should a notice be lost (e.g. while the LISTEN connection reconnects). */
  ttlMs?: number;
  now?: () => number;
}

/**
 * The session user check of every request, kept in memory. A change on any replica arrives as a
 * notice on USERS_CHANNEL and drops the entry; the door that made the change drops it at once.
 */
export class UserCache {
  private entries = new Map<string, { user: SessionUser | null; at: number }>();
  /** Bumped by every invalidation: a read that started before one must not store its (older) row. */
  private epoch = 0;
  private unlisten: (() => Promise<void>) | undefined;
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    opts: UserCacheOptions = {},
  ) {
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.now = opts.now ?? Date.now;
  }

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(USERS_CHANNEL, (id) => this.invalidate(id || undefined));
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /** Drops one user, or everyone when no id is given. */
  invalidate(id?: string): void {
    this.epoch++;
    if (id) this.entries.delete(id);
    else this.entries.clear();
  }

  async get(id: string): Promise<SessionUser | null> {
    const hit = this.entries.get(id);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.user;
    const epoch = this.epoch;
    const row = await getUser(this.database.db, id);
    const user: SessionUser | null = row
      ? { id: row.id, email: row.email, role: row.role, disabled: row.disabled, sessionsValidAfter: row.sessionsValidAfter }
      : null;
    if (epoch === this.epoch) {
      this.entries.delete(id);
      this.entries.set(id, { user, at: this.now() });
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return user;
  }
}
