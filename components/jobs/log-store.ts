import type { LogLine } from './view';

/** Lines held in the browser; past this the oldest are dropped (Download has the whole log). */
export const MAX_LINES = 200_000;
const TRIM_CHUNK = 20_000;

/**
 * A job's log lines, outside React state: the stream appends here line by line and the view is told
 * once per animation frame. Duplicates (a replay after reconnecting) are dropped by sequence number.
 */
export class LogStore {
  lines: LogLine[] = [];
  lastSeq = 0;
  /** Lines dropped from the front to stay under MAX_LINES. */
  dropped = 0;
  /** Changes whenever lines are removed, so derived indexes know to rebuild. */
  epoch = 0;

  push(l: LogLine): boolean {
    if (!(l.seq > this.lastSeq)) return false;
    this.lines.push(l);
    this.lastSeq = l.seq;
    if (this.lines.length > MAX_LINES + TRIM_CHUNK) {
      const n = this.lines.length - MAX_LINES;
      this.lines.splice(0, n);
      this.dropped += n;
      this.epoch++;
    }
    return true;
  }

  text(): string {
    return this.lines.map((l) => l.line).join('\n');
  }
}
