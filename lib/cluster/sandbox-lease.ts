// Sandboxes in use, as every replica sharing the database sees them. A use (a terminal, an exec, an
// upload, a skill install) holds a row that its holder renews while the use lasts and deletes at its
// end; a holder that dies stops renewing, so its rows stop protecting once `expires_at` passes.
// Last use is one row per sandbox with reason 'activity', whose `expires_at` is the moment of that
// use: it protects nothing by itself, the idle sweep compares it with the container's idle TTL.
import { and, eq, gt, inArray, lt, ne, or, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { sandboxLeases } from '@/db/schema';
import { randomToken } from '../core/ids';
import { describeError, logger } from '../core/logger';

export const SANDBOX_LEASE_TTL_MS = 60_000;
export const ACTIVITY_REASON = 'activity';
/** Activity rows older than the longest idle TTL a config may set (30 days) say nothing any more. */
const ACTIVITY_KEEP_MS = 31 * 24 * 3600_000;

export type LeaseReason = 'exec' | 'terminal' | 'upload' | 'install' | 'probe' | 'file';

export interface ClusterLeases {
  /** Sandbox keys with an unexpired lease of any holder. */
  leased: { sandboxKey: string; holder: string; reason: string }[];
  /** Last use per sandbox key (ms since the epoch). */
  activity: Map<string, number>;
}

const activityId = (sandboxKey: string) => `activity:${sandboxKey}`;

export class SandboxLeaseStore {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: AppDb,
    /** The replica id. */
    readonly holder: string,
    private readonly ttlMs = SANDBOX_LEASE_TTL_MS,
  ) {}

  private expiry() {
    return sql`now() + make_interval(secs => ${this.ttlMs / 1000})`;
  }

  /** Inserts a lease row; renewed by this store until released. Returns its id. */
  async hold(sandboxKey: string, reason: LeaseReason): Promise<string> {
    const id = `${reason}:${randomToken(9)}`;
    await this.db.insert(sandboxLeases).values({ id, sandboxKey, holder: this.holder, reason, expiresAt: this.expiry() });
    this.held.add(id);
    this.timer ??= setInterval(() => void this.renew(), Math.max(1000, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
    return id;
  }

  /** Deletes the lease row and records the use as activity, in one statement (it ends every exec). */
  async release(id: string, sandboxKey: string, at: Date): Promise<void> {
    this.held.delete(id);
    if (this.held.size === 0) this.stopTimer();
    await this.db.execute(sql`
      with gone as (delete from ${sandboxLeases} where ${sandboxLeases.id} = ${id} and ${sandboxLeases.holder} = ${this.holder})
      insert into ${sandboxLeases} (id, sandbox_key, holder, reason, expires_at)
      values (${activityId(sandboxKey)}, ${sandboxKey}, ${this.holder}, ${ACTIVITY_REASON}, ${at.toISOString()}::timestamptz)
      on conflict (id) do update set holder = excluded.holder, expires_at = greatest(${sandboxLeases}.expires_at, excluded.expires_at)`);
  }

  /** Records a use at `at`; an earlier time never overwrites a later one. */
  async touch(sandboxKey: string, at: Date): Promise<void> {
    await this.db
      .insert(sandboxLeases)
      .values({ id: activityId(sandboxKey), sandboxKey, holder: this.holder, reason: ACTIVITY_REASON, expiresAt: at })
      .onConflictDoUpdate({
        target: sandboxLeases.id,
        set: { holder: this.holder, expiresAt: sql`greatest(${sandboxLeases.expiresAt}, excluded.expires_at)` },
      });
  }

  /** Renews every row this store holds (one statement), so they outlive the TTL while in use. */
  async renew(): Promise<void> {
    if (this.held.size === 0) return;
    try {
      await this.db
        .update(sandboxLeases)
        .set({ expiresAt: this.expiry() })
        .where(and(eq(sandboxLeases.holder, this.holder), inArray(sandboxLeases.id, [...this.held])));
    } catch (e) {
      logger.warn('sandbox lease renewal failed', { err: describeError(e) });
    }
  }

  /** What the idle sweep needs of the whole cluster, in one read. */
  async cluster(): Promise<ClusterLeases> {
    const rows = await this.db
      .select({ sandboxKey: sandboxLeases.sandboxKey, holder: sandboxLeases.holder, reason: sandboxLeases.reason, expiresAt: sandboxLeases.expiresAt })
      .from(sandboxLeases)
      .where(or(eq(sandboxLeases.reason, ACTIVITY_REASON), gt(sandboxLeases.expiresAt, sql`now()`)));
    const out: ClusterLeases = { leased: [], activity: new Map() };
    for (const r of rows) {
      if (r.reason !== ACTIVITY_REASON) out.leased.push({ sandboxKey: r.sandboxKey, holder: r.holder, reason: r.reason });
      else out.activity.set(r.sandboxKey, Math.max(out.activity.get(r.sandboxKey) ?? 0, r.expiresAt.getTime()));
    }
    return out;
  }

  /** Drops the rows of a removed sandbox (its activity, and leases long expired), and stale rows of any sandbox. */
  async forget(sandboxKeys: string[]): Promise<void> {
    const stale = or(
      and(ne(sandboxLeases.reason, ACTIVITY_REASON), lt(sandboxLeases.expiresAt, sql`now()`)),
      and(eq(sandboxLeases.reason, ACTIVITY_REASON), lt(sandboxLeases.expiresAt, sql`now() - make_interval(secs => ${ACTIVITY_KEEP_MS / 1000})`)),
    );
    const gone = sandboxKeys.length ? and(eq(sandboxLeases.reason, ACTIVITY_REASON), inArray(sandboxLeases.sandboxKey, sandboxKeys)) : undefined;
    await this.db.delete(sandboxLeases).where(gone ? or(stale, gone) : stale);
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops renewing and deletes this holder's lease rows (a clean shutdown; a crash leaves them to expire). */
  async close(): Promise<void> {
    this.stopTimer();
    const ids = [...this.held];
    this.held.clear();
    if (ids.length)
      await this.db
        .delete(sandboxLeases)
        .where(and(eq(sandboxLeases.holder, this.holder), inArray(sandboxLeases.id, ids)))
        .catch(() => undefined);
  }
}
