import type { Database } from '@/db/client';
import { JsonText, ReadCache, type ReadCacheOptions } from '../core/read-cache';
import { type ListJobsQuery, listJobs } from './list';
import { BUS_CHANNEL } from './types';

/** The canonical key of a parsed query: the same filters in any order name the same page. */
const keyOf = (q: ListJobsQuery) =>
  JSON.stringify(
    Object.entries(q)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );

/**
 * Pages of the job list, kept as their JSON text. Every write to the jobs table is followed by a
 * notice on BUS_CHANNEL (state, progress, log count, new jobs, cancel): a notice sent by this
 * process drops the pages before it leaves, so whoever made the change reads it back at once;
 * another replica's notice drops them when it arrives. The TTL bounds staleness should a notice
 * be lost while the LISTEN connection reconnects.
 */
export class JobListCache {
  private readonly cache: ReadCache<JsonText>;
  private unlisten: (() => Promise<void>) | undefined;
  private restoreNotify: (() => void) | undefined;

  constructor(
    private readonly database: Database,
    opts: ReadCacheOptions = {},
  ) {
    this.cache = new ReadCache<JsonText>(opts);
  }

  async start(): Promise<void> {
    const db = this.database;
    const notify = db.notify;
    db.notify = (channel, payload) => {
      if (channel === BUS_CHANNEL) this.cache.invalidate();
      return notify.call(db, channel, payload);
    };
    this.restoreNotify = () => {
      db.notify = notify;
    };
    this.unlisten = await db.listen(BUS_CHANNEL, () => this.cache.invalidate());
  }

  async stop(): Promise<void> {
    this.restoreNotify?.();
    this.restoreNotify = undefined;
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /** For writes that send no notice of their own (retention, tests). */
  invalidate(): void {
    this.cache.invalidate();
  }

  get size(): number {
    return this.cache.size;
  }

  list(q: ListJobsQuery): Promise<JsonText> {
    return this.cache.get(keyOf(q), async () => JsonText.of(await listJobs(this.database, q)));
  }
}
