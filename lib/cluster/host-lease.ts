// Ownership of one piece of host-bound work (a Docker engine's network enforcement, a host runtime)
// among the replicas sharing the database: at most one holder per key, renewed well before it
// expires, taken over by another replica once the holder stops renewing (it died or lost the database).
import { and, eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { hostLeases } from '@/db/schema';
import { describeError, logger } from '../core/logger';

export const HOST_LEASE_TTL_MS = 15_000;

export interface HostLeaseOptions {
  db: AppDb;
  key: string;
  /** The replica id. */
  holder: string;
  ttlMs?: number;
  /** Called when this replica becomes the holder, with the lease's generation (a fencing token). */
  onAcquire: (generation: number) => void | Promise<void>;
  /** Called when a renewal found the lease gone to another holder: stop the owned work at once. */
  onLose: () => void | Promise<void>;
}

export interface LeaseHolder {
  holder: string;
  generation: number;
  expiresAt: Date;
}

/** Takes the lease when it is free, expired or already ours; answers whether we hold it now. */
export async function takeHostLease(db: AppDb, key: string, holder: string, ttlMs: number): Promise<LeaseHolder | null> {
  const expires = sql`now() + make_interval(secs => ${ttlMs / 1000})`;
  const rows = await db
    .insert(hostLeases)
    .values({ key, holder, expiresAt: expires })
    .onConflictDoUpdate({
      target: hostLeases.key,
      set: {
        holder,
        expiresAt: expires,
        generation: sql`case when ${hostLeases.holder} = ${holder} then ${hostLeases.generation} else ${hostLeases.generation} + 1 end`,
        acquiredAt: sql`case when ${hostLeases.holder} = ${holder} then ${hostLeases.acquiredAt} else now() end`,
      },
      setWhere: sql`${hostLeases.holder} = ${holder} or ${hostLeases.expiresAt} < now()`,
    })
    .returning({ holder: hostLeases.holder, generation: hostLeases.generation, expiresAt: hostLeases.expiresAt });
  return rows[0] ?? null;
}

/** The current holder of a key, expired or not (null when nobody ever took it). */
export async function leaseHolder(db: AppDb, key: string): Promise<(LeaseHolder & { expired: boolean }) | null> {
  const rows = await db
    .select({
      holder: hostLeases.holder,
      generation: hostLeases.generation,
      expiresAt: hostLeases.expiresAt,
      expired: sql<boolean>`${hostLeases.expiresAt} < now()`,
    })
    .from(hostLeases)
    .where(eq(hostLeases.key, key));
  return rows[0] ?? null;
}

/** Gives the lease up (at shutdown) so a standby takes over without waiting for the expiry. */
export async function releaseHostLease(db: AppDb, key: string, holder: string): Promise<void> {
  await db.delete(hostLeases).where(and(eq(hostLeases.key, key), eq(hostLeases.holder, holder)));
}

/**
 * Keeps trying to hold one lease: a standby tries every third of the lifetime, a holder renews at
 * the same pace. Callbacks run one at a time, in order.
 */
export class HostLease {
  private timer: NodeJS.Timeout | undefined;
  private heldGeneration: number | null = null;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private renewedAt = 0;
  readonly ttlMs: number;

  constructor(private readonly opts: HostLeaseOptions) {
    this.ttlMs = opts.ttlMs ?? HOST_LEASE_TTL_MS;
  }

  get held(): boolean {
    return this.heldGeneration !== null;
  }

  get generation(): number | null {
    return this.heldGeneration;
  }

  /** The first attempt is awaited, so a replica booting alone holds its lease before it serves. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), Math.max(200, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  private tick(): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.stopped) return;
      let row: LeaseHolder | null = null;
      try {
        row = await takeHostLease(this.opts.db, this.opts.key, this.opts.holder, this.ttlMs);
      } catch (e) {
        logger.warn('host lease renewal failed', { key: this.opts.key, err: describeError(e) });
        // Without the database we cannot prove we still hold it: once it would have expired, another replica may.
        if (this.heldGeneration !== null && Date.now() - this.renewedAt >= this.ttlMs) {
          this.heldGeneration = null;
          await this.opts.onLose();
        }
        return;
      }
      const mine = row?.holder === this.opts.holder;
      if (mine) this.renewedAt = Date.now();
      if (mine && this.heldGeneration === null) {
        this.heldGeneration = row!.generation;
        logger.info('host lease taken', { key: this.opts.key, generation: row!.generation });
        await this.opts.onAcquire(row!.generation);
      } else if (!mine && this.heldGeneration !== null) {
        this.heldGeneration = null;
        logger.warn('host lease lost to another replica', { key: this.opts.key });
        await this.opts.onLose();
      }
    });
    return this.chain;
  }

  /** Stops renewing without releasing, as a killed process would (tests of a takeover). */
  abandon(): void {
    this.stopped = true;
    clearInterval(this.timer);
    this.heldGeneration = null;
  }

  /** Stops renewing; a holder releases the lease so a standby takes over at its next attempt. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.chain;
    if (this.heldGeneration !== null) {
      this.heldGeneration = null;
      await releaseHostLease(this.opts.db, this.opts.key, this.opts.holder).catch(() => undefined);
    }
  }
}
