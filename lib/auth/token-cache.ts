import type { Database } from '@/db/client';
import { AppError } from '../core/errors';
import { hashToken, resolveToken } from './tokens';
import { onLocalChange, TOKENS_CHANNEL, USERS_CHANNEL } from './user-events';

type Resolved = Awaited<ReturnType<typeof resolveToken>>;
const PENDING_MS = 30_000;

export interface TokenCacheOptions {
  /** How long a resolved token is taken on its word; bounds staleness should a notice be lost. */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** Hear this process's own announcements (default); off, it stands for another replica, which only gets the notices. */
  hearLocal?: boolean;
}

/**
 * Bearer tokens resolved within the last moments, by the hash of the token. A revocation on any
 * replica arrives on TOKENS_CHANNEL and a user change on USERS_CHANNEL; a change this process makes
 * drops the entries as it is announced and nothing of it is kept until its notice arrives, so this
 * replica refuses a revoked token on the next request after the revoking call returns.
 * Expiry is checked on every use. Only tokens that resolved are kept: a refused one is looked up
 * again every time.
 */
export class TokenCache {
  private entries = new Map<string, { r: Resolved; at: number }>();
  /** Bumped by every invalidation: a lookup that started before one must not store its (older) rows. */
  private epoch = 0;
  private unlisten: (() => unknown)[] = [];
  /** Changes announced by this process whose committed notice has not arrived: nothing of them is kept meanwhile. */
  private pending = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly hearLocal: boolean;

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    opts: TokenCacheOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 2000;
    this.maxEntries = opts.maxEntries ?? 10_000;
    this.now = opts.now ?? Date.now;
    this.hearLocal = opts.hearLocal ?? true;
  }

  async start(): Promise<void> {
    const heard = (channel: string, id: string) => {
      this.pending.delete(`${channel}:${id}`);
      this.changed(channel, id);
    };
    this.unlisten.push(await this.database.listen(TOKENS_CHANNEL, (id) => heard(TOKENS_CHANNEL, id)));
    this.unlisten.push(await this.database.listen(USERS_CHANNEL, (id) => heard(USERS_CHANNEL, id)));
    if (!this.hearLocal) return;
    this.unlisten.push(
      onLocalChange((channel, id) => {
        if (channel !== TOKENS_CHANNEL && channel !== USERS_CHANNEL) return;
        // A notice that never comes (the transaction rolled back) holds caching back for a while only.
        this.pending.set(`${channel}:${id}`, this.now() + PENDING_MS);
        this.changed(channel, id);
      }),
    );
  }

  private changed(channel: string, id: string): void {
    if (channel === TOKENS_CHANNEL) this.forgetToken(id || undefined);
    else this.forgetUser(id || undefined);
  }

  private held(r: Resolved): boolean {
    const now = this.now();
    for (const key of [`${TOKENS_CHANNEL}:${r.token.id}`, `${USERS_CHANNEL}:${r.user.id}`]) {
      const until = this.pending.get(key);
      if (until === undefined) continue;
      if (until > now) return true;
      this.pending.delete(key);
    }
    return false;
  }

  async stop(): Promise<void> {
    const offs = this.unlisten;
    this.unlisten = [];
    await Promise.all(offs.map(async (off) => off()));
  }

  private drop(match?: (r: Resolved) => boolean): void {
    this.epoch++;
    if (!match) this.entries.clear();
    else for (const [k, e] of this.entries) if (match(e.r)) this.entries.delete(k);
  }

  /** Drops one token (by id), or every token. */
  forgetToken(id?: string): void {
    this.drop(id ? (r) => r.token.id === id : undefined);
  }

  /** Drops the tokens of one user, or every token. */
  forgetUser(id?: string): void {
    this.drop(id ? (r) => r.user.id === id : undefined);
  }

  get size(): number {
    return this.entries.size;
  }

  /** resolveToken, answered from memory while the entry is fresh; the caller may change the permissions it gets. */
  async resolve(bearer: string): Promise<Resolved> {
    const key = hashToken(bearer);
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && now - hit.at < this.ttlMs) {
      const { token, user, permissions } = hit.r;
      if (token.expiresAt && token.expiresAt.getTime() <= now) {
        this.entries.delete(key);
        throw new AppError('unauthenticated', 'This API token has expired.');
      }
      return { token, user, permissions: new Set(permissions) };
    }
    const epoch = this.epoch;
    const r = await resolveToken(this.database.db, bearer);
    if (epoch === this.epoch && !this.held(r)) {
      this.entries.delete(key);
      this.entries.set(key, { r: { ...r, permissions: new Set(r.permissions) }, at: this.now() });
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return r;
  }
}
