import type { Database } from '@/db/client';
import { logger } from '../core/logger';
import { type LogEvent, RecentLog } from './log-recent';
import { getJob, readJobLogs } from './queue';
import { BUS_CHANNEL, type BusMessage, type JobEvent, type JobRow, logEvent } from './types';

type Listener = (e: JobEvent) => void;

interface Channel {
  listeners: Set<Listener>;
  /** Highest sequence number fetched from the database and handed to listeners. */
  fetchedUpTo: number;
  pumping: boolean;
  dirty: boolean;
  ready: Promise<void>;
  /** The latest lines handed out, for followers catching up (set once the starting point is known). */
  recent: RecentLog | undefined;
}

const PAGE = 5000;

export interface JobEventHubOptions {
  /** Frame bytes of the latest lines kept per followed job for followers catching up. */
  recentBytes?: number;
}

/**
 * Fans job events out to this process's followers. One LISTEN per process; on each notice the new
 * log rows of a job are read once and handed to every follower of that job, so N followers cost one
 * query, and replicas on one PostgreSQL each see every line.
 */
export class JobEventHub {
  private channels = new Map<string, Channel>();
  private unlisten: (() => Promise<void>) | undefined;
  private extra = new Set<(m: BusMessage) => void>();
  private stateWatchers = new Set<(job: JobRow) => void>();
  /** Job event streams open now per owner (the per-owner bound of the streams of this hub). */
  readonly openStreams = new Map<string, number>();

  constructor(
    private readonly database: Database,
    private readonly opts: JobEventHubOptions = {},
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(BUS_CHANNEL, (payload) => {
      let msg: BusMessage;
      try {
        msg = JSON.parse(payload) as BusMessage;
      } catch {
        return;
      }
      this.onMessage(msg);
    });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /** Other parts of the process (the worker) can observe bus messages without a second LISTEN. */
  onBus(fn: (m: BusMessage) => void): () => void {
    this.extra.add(fn);
    return () => this.extra.delete(fn);
  }

  /** Every job's state changes (for live lists); the row is read once per change, whatever the number of watchers. */
  onJobState(fn: (job: JobRow) => void): () => void {
    this.stateWatchers.add(fn);
    return () => this.stateWatchers.delete(fn);
  }

  private onMessage(msg: BusMessage) {
    for (const fn of this.extra) fn(msg);
    if (msg.t === 'state' && this.stateWatchers.size) {
      void getJob(this.database, msg.id)
        .then((job) => this.stateWatchers.forEach((w) => w(job)))
        .catch(() => undefined);
    }
    if (msg.t === 'log') {
      const ch = this.channels.get(msg.id);
      if (ch && msg.seq > ch.fetchedUpTo) this.pump(msg.id);
    } else if (msg.t === 'state') {
      const ch = this.channels.get(msg.id);
      if (ch) void this.emitState(msg.id);
    }
  }

  private async emitState(id: string) {
    try {
      const job = await getJob(this.database, id);
      // Deliver any lines written before the state change first, so "succeeded" follows the last line.
      this.pump(id);
      await this.channels.get(id)?.ready;
      const ch = this.channels.get(id);
      ch?.listeners.forEach((l) => l({ type: 'state', job }));
    } catch (e) {
      logger.warn('job state fetch failed', { id, error: String(e) });
    }
  }

  /**
   * Follows a job's new events from now on. Returns after the follower is registered and the
   * starting point is fixed, so a caller that replays history up to now afterwards misses nothing.
   */
  async subscribe(id: string, listener: Listener): Promise<() => void> {
    let ch = this.channels.get(id);
    if (!ch) {
      const created: Channel = {
        listeners: new Set(),
        fetchedUpTo: Number.MAX_SAFE_INTEGER,
        pumping: false,
        dirty: false,
        ready: Promise.resolve(),
        recent: undefined,
      };
      const recentBytes = this.opts.recentBytes ?? 4 * 1024 * 1024;
      created.ready = getJob(this.database, id)
        .then((j) => {
          created.fetchedUpTo = j.logCount;
          created.recent = new RecentLog(j.logCount, recentBytes);
        })
        .catch(() => {
          created.fetchedUpTo = 0;
          created.recent = new RecentLog(0, recentBytes);
        });
      this.channels.set(id, created);
      ch = created;
    }
    ch.listeners.add(listener);
    await ch.ready;
    return () => {
      ch.listeners.delete(listener);
      if (ch.listeners.size === 0 && this.channels.get(id) === ch) this.channels.delete(id);
    };
  }

  /** Lines this process just stored: its followers get them at once, without reading them back. */
  stored(id: string, rows: readonly { seq: number; at: Date; stream: string; line: string }[]): void {
    const ch = this.channels.get(id);
    if (!ch) return;
    // Until the starting point is known, the pump (which waits for it) reads them.
    if (!ch.recent) return this.pump(id);
    // A pump that read some of these already has handed them out.
    let i = 0;
    while (i < rows.length && rows[i].seq <= ch.fetchedUpTo) i++;
    if (i === rows.length) return;
    if (rows[i].seq !== ch.fetchedUpTo + 1) return this.pump(id);
    this.deliver(ch, i ? rows.slice(i) : rows);
  }

  /**
   * Stored lines after `cursor` held in memory for a followed job, or undefined when the follower
   * must read them from the database (not followed here, or older than what is kept).
   */
  recent(id: string, cursor: number, limit: number): LogEvent[] | undefined {
    return this.channels.get(id)?.recent?.since(cursor, limit);
  }

  /** Hands rows that follow on exactly from `fetchedUpTo` to every follower; one event per line, shared. */
  private deliver(ch: Channel, rows: readonly { seq: number; at: Date; stream: string; line: string }[]) {
    ch.fetchedUpTo = rows[rows.length - 1].seq;
    for (const r of rows) {
      const ev = logEvent(r);
      ch.recent?.append(ev);
      ch.listeners.forEach((l) => l(ev));
    }
  }

  /** Reads new rows of a job and hands them out; coalesces bursts of notices into one reader. */
  pump(id: string): void {
    const ch = this.channels.get(id);
    if (!ch) return;
    ch.dirty = true;
    if (ch.pumping) return;
    ch.pumping = true;
    void (async () => {
      try {
        await ch.ready;
        while (ch.dirty) {
          ch.dirty = false;
          const rows = await readJobLogs(this.database, id, ch.fetchedUpTo, PAGE);
          if (rows.length === PAGE) ch.dirty = true;
          // Lines stored by this process while the read ran were handed out already.
          const fresh = rows.filter((r) => r.seq > ch.fetchedUpTo);
          if (fresh.length) this.deliver(ch, fresh);
        }
      } catch (e) {
        logger.warn('job log fan-out failed', { id, error: String(e) });
      } finally {
        ch.pumping = false;
      }
    })();
  }
}
