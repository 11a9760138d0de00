import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobLogs, jobs } from '@/db/schema';
import { logger } from '../core/logger';
import { BUS_CHANNEL, type BusMessage } from './types';

const MAX_LINE = 8192;
const BATCH = 1000;
const FLUSH_MS = 20;
const PGLITE_PAGE = 250;
export const MAX_LINES_PER_JOB = 2_000_000;

type Stream = 'stdout' | 'stderr' | 'info';
export type LogRow = { seq: number; at: Date; stream: Stream; line: string };

export interface LogWriterOptions {
  /** Writes only while the job is still this worker's and this attempt's; a fenced-off attempt's lines are dropped. */
  owner?: string;
  attempt?: number;
  /** Told of every stored batch, so followers in this process get it without reading it back. */
  onStored?: (jobId: string, rows: LogRow[]) => void;
}

/**
 * Appends a job's log lines with consecutive sequence numbers. Lines are batched (one INSERT and one
 * NOTIFY per batch), and flushes run strictly in order so sequence numbers never interleave.
 */
export class JobLogWriter {
  private buffer: LogRow[] = [];
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private capped = false;
  private fenced = false;

  constructor(
    private readonly database: Database,
    private readonly jobId: string,
    private seq: number,
    private readonly opts: LogWriterOptions = {},
  ) {}

  /** Continues after the highest stored sequence number (a crashed attempt may not have updated log_count). */
  static async open(database: Database, jobId: string, opts: LogWriterOptions = {}): Promise<JobLogWriter> {
    const [r] = await database.db
      .select({ max: sql<number | null>`max(${jobLogs.seq})` })
      .from(jobLogs)
      .where(eq(jobLogs.jobId, jobId));
    return new JobLogWriter(database, jobId, Number(r?.max ?? 0), opts);
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
    // A lone surrogate cannot travel as JSON to PostgreSQL: it becomes U+FFFD, as a UTF-8 encoder would make it.
    const clean = line
      .replace(/[\u0000-\u0008\u000b-\u001a\u001c-\u001f]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
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
    // The buffer is taken when the previous write ends, so a slow database gets fewer, larger batches.
    this.chain = this.chain.then(() => this.write());
    return this.chain;
  }

  private async write(): Promise<void> {
    const rows = this.buffer.splice(0);
    if (!rows.length) return;
    try {
      const { owner, attempt } = this.opts;
      const fence =
        owner !== undefined && attempt !== undefined
          ? and(eq(jobs.id, this.jobId), eq(jobs.leaseOwner, owner), eq(jobs.attempts, attempt))
          : eq(jobs.id, this.jobId);
      // PGlite runs each statement on this thread: smaller statements let the followers' writes go
      // out between them, instead of waiting behind one long insert.
      const pageRows = this.database.kind === 'pglite' ? PGLITE_PAGE : BATCH;
      let stored = 0;
      for (let i = 0; i < rows.length; i += pageRows) {
        const page = rows.slice(i, i + pageRows);
        const data = JSON.stringify(page.map((r) => ({ seq: r.seq, at: r.at.toISOString(), stream: r.stream, line: r.line })));
        // One statement per page: the fence, the count and the rows together, so a fenced-off attempt writes nothing.
        const [r] = await this.database.rows<{ n: number }>(sql`
          with own as (
            update ${jobs} set log_count = greatest(${jobs.logCount}, ${page[page.length - 1].seq}) where ${fence} returning ${jobs.id}
          ), ins as (
            insert into ${jobLogs} (job_id, seq, at, stream, line)
            select own.id, r.seq, r.at, r.stream, r.line
            from own, json_to_recordset(${data}::json) as r(seq bigint, at timestamptz, stream text, line text)
            returning 1
          )
          select count(*)::int as n from ins`);
        if (!Number(r?.n ?? 0)) break;
        stored += page.length;
        // Each page is durable now: this process's followers get it without waiting for the rest.
        this.opts.onStored?.(this.jobId, page);
      }
      if (!stored) {
        if (!this.fenced) logger.warn('job log lines dropped: the job is no longer this attempt', { jobId: this.jobId, attempt });
        this.fenced = true;
        return;
      }
      const msg: BusMessage = { t: 'log', id: this.jobId, seq: rows[stored - 1].seq };
      await this.database.notify(BUS_CHANNEL, JSON.stringify(msg));
    } catch (e) {
      logger.error('job log write failed', { jobId: this.jobId, error: String(e) });
    }
  }
}
