import type { JobEvent } from './types';

export type LogEvent = Extract<JobEvent, { type: 'log' }>;

/**
 * The latest stored log lines of one followed job, as the events already built for its followers.
 * It is complete after `base`: every stored line with a higher sequence number, up to the newest
 * handed out, is here — so a follower a little behind catches up from memory instead of reading
 * the database again (twenty followers, one read). Oldest lines go first past `maxBytes` of frames.
 */
export class RecentLog {
  private events: LogEvent[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    private base: number,
    private readonly maxBytes: number,
  ) {}

  /** The highest sequence number after which nothing is missing. */
  get from(): number {
    return this.base;
  }

  /** Events in sequence order, each newer than everything held. */
  append(ev: LogEvent): void {
    this.events.push(ev);
    this.bytes += ev.frame.length;
    while (this.bytes > this.maxBytes && this.head < this.events.length) {
      const old = this.events[this.head++];
      this.bytes -= old.frame.length;
      this.base = old.seq;
    }
    // Drop the consumed front now and then, so the array does not keep every line it ever held.
    if (this.head > 4096 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
  }

  /** Up to `limit` events after `cursor`, or undefined when lines after `cursor` are no longer held. */
  since(cursor: number, limit: number): LogEvent[] | undefined {
    if (cursor < this.base) return undefined;
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid].seq <= cursor) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo, lo + limit);
  }
}
