import { eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobLogs, jobs } from '@/db/schema';
import { logger } from '../core/logger';
import { BUS_CHANNEL, type BusMessage } from './types';

const MAX_LINE = 8192;
const BATCH = 1000;
const FLUSH_MS = 20;
export const MAX_LINES_PER_JOB = 2_000_000;

type Stream = 'stdout' | 'stderr' | 'info';

/**
 * Appends a job's log lines with consecutive sequence numbers. Lines are batched (one INSERT and one
 * NOTIFY per batch), and flushes run strictly in order so sequence numbers never interleave.
 */
export class JobLogWriter {
  private buffer: { seq: number; at: Date; stream: Stream; line: string }[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private capped = false;

  constructor(
    private readonly database: Database,
    private readonly jobId: string,
    private seq: number,
  ) {}

  /** Continues after the highest stored sequence number (a crashed attempt may not have updated log_count). */
  static async open(database: Database, jobId: string): Promise<JobLogWriter> {
    const [r] = await database.db
      .select({ max: sql<number | null>`max(${jobLogs.seq})` })
      .from(jobLogs)
      .where(eq(jobLogs.jobId, jobId));
    return new JobLogWriter(database, jobId, Number(r?.max ?? 0));
  }

  get lastSeq() {
    return this.seq;
  }

  append(line: string, stream: Stream = 'info'): void {
    if (this.seq >= MAX_LINES_PER_JOB) {
      if (!this.capped) {
        this.capped = true;
        this.push(`[skilldock] log limit of ${MAX_LINES_PER_JOB} lines reached; further output is dropped`, 'info');
      }
      return;
    }
    this.push(line.length > MAX_LINE ? line.slice(0, MAX_LINE) + ' …[line truncated]' : line, stream);
  }

  private push(line: string, stream: Stream) {
    // Control characters other than tab and ANSI escapes would corrupt the viewer; NUL breaks PostgreSQL text.
    const clean = line.replace(/[\u0000-\u0008\u000b-\u001a\u001c-\u001f]/g, '');
    this.buffer.push({ seq: ++this.seq, at: new Date(), stream, line: clean });
    if (this.buffer.length >= BATCH) this.flushSoon(0);
    else this.flushSoon(FLUSH_MS);
  }

  private flushSoon(ms: number) {
    if (this.timer && ms > 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
  }

  /** Writes everything buffered so far; resolves when it is in the database and announced. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.buffer.splice(0);
    if (!rows.length) return this.chain;
    this.chain = this.chain.then(async () => {
      try {
        for (let i = 0; i < rows.length; i += BATCH) {
          await this.database.db.insert(jobLogs).values(rows.slice(i, i + BATCH).map((r) => ({ jobId: this.jobId, ...r })));
        }
        const last = rows[rows.length - 1].seq;
        await this.database.db.update(jobs).set({ logCount: last }).where(eq(jobs.id, this.jobId));
        const msg: BusMessage = { t: 'log', id: this.jobId, seq: last };
        await this.database.notify(BUS_CHANNEL, JSON.stringify(msg));
      } catch (e) {
        logger.error('job log write failed', { jobId: this.jobId, error: String(e) });
      }
    });
    return this.chain;
  }
}
