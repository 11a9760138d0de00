// This process as one replica among those sharing the database: an id, a heartbeat, and the
// internal address other replicas reach it on (terminal relays).
import os from 'node:os';
import { eq, gt, lt, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { replicas } from '@/db/schema';
import { randomToken } from '../core/ids';
import { describeError, logger } from '../core/logger';

export const REPLICA_HEARTBEAT_MS = 5_000;
/** A replica whose heartbeat is older than this is taken for dead. */
export const REPLICA_DEAD_AFTER_MS = 20_000;

export interface ReplicaRow {
  id: string;
  hostname: string;
  address: string | null;
  seenAt: Date;
}

export class Replica {
  readonly id = `${os.hostname()}:${process.pid}:${randomToken(4)}`;
  private timer: NodeJS.Timeout | undefined;
  private address: string | null = null;

  constructor(private readonly db: AppDb) {}

  /** Registers this replica and keeps its heartbeat; rows of replicas dead for long are pruned on the way. */
  async start(address: string | null = null): Promise<void> {
    this.address = address;
    await this.db
      .insert(replicas)
      .values({ id: this.id, hostname: os.hostname(), address })
      .onConflictDoUpdate({ target: replicas.id, set: { address, seenAt: sql`now()` } });
    this.timer = setInterval(() => void this.beat(), REPLICA_HEARTBEAT_MS);
    this.timer.unref();
  }

  /** The internal base URL is known only once the server listens; it is set then. */
  async setAddress(address: string): Promise<void> {
    this.address = address;
    await this.db.update(replicas).set({ address, seenAt: sql`now()` }).where(eq(replicas.id, this.id));
  }

  private async beat(): Promise<void> {
    try {
      await this.db
        .insert(replicas)
        .values({ id: this.id, hostname: os.hostname(), address: this.address })
        .onConflictDoUpdate({ target: replicas.id, set: { seenAt: sql`now()` } });
      await this.db.delete(replicas).where(lt(replicas.seenAt, sql`now() - make_interval(secs => ${(REPLICA_DEAD_AFTER_MS * 30) / 1000})`));
    } catch (e) {
      logger.warn('replica heartbeat failed', { err: describeError(e) });
    }
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.db
      .delete(replicas)
      .where(eq(replicas.id, this.id))
      .catch(() => undefined);
  }
}

/** The condition on `replicas` of a replica taken for alive (a recent heartbeat). */
export const replicaAlive = () => gt(replicas.seenAt, sql`now() - make_interval(secs => ${REPLICA_DEAD_AFTER_MS / 1000})`);

/** Replicas whose heartbeat is recent. */
export async function liveReplicas(db: AppDb): Promise<ReplicaRow[]> {
  return db.select({ id: replicas.id, hostname: replicas.hostname, address: replicas.address, seenAt: replicas.seenAt }).from(replicas).where(replicaAlive());
}
