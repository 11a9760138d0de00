import type { Database } from '@/db/client';
import { AppError } from '../core/errors';
import type { JobEventHub } from './hub';
import { getJob, isFinal, readJobLogs } from './queue';
import { type JobEvent, type JobRow, logEvent } from './types';

const HEARTBEAT_MS = 15_000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-store, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
  'content-encoding': 'identity',
};

export interface JobStreamOptions {
  /** Log rows read per replay page. */
  pageRows?: number;
  /** Bytes the stream queues for its reader before it stops pulling. */
  highWaterBytes?: number;
  /**
   * Live bytes held for a reader that does not keep up. Past this the held lines are dropped and the
   * stream goes back to paged replay from the last line sent, so nothing is lost and memory stays bounded.
   */
  maxLiveBytes?: number;
  /** Who opened the stream, and how many streams one owner may hold open at once. */
  owner?: string;
  maxPerOwner?: number;
}

export interface JobStreamStats {
  /** Replay pages read from the database, and taken from the hub's latest lines instead. */
  pagesRead: number;
  pagesFromMemory: number;
  /** Live bytes held right now, and the most ever held. */
  liveBytes: number;
  maxLiveBytesSeen: number;
  /** Times the live buffer overflowed and the stream fell back to replay. */
  fallbacks: number;
  closed: boolean;
}

const stateData = (j: JobRow) =>
  JSON.stringify({
    id: j.id,
    state: j.state,
    progressPercent: j.progressPercent,
    progressStage: j.progressStage,
    error: j.error,
    result: j.result,
    attempts: j.attempts,
    logCount: j.logCount,
    cancelRequested: j.cancelRequested,
    startedAt: j.startedAt,
    finishedAt: j.finishedAt,
  });

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type Held = { seq: number; frame: string } | { seq: null; frame: string; job?: JobRow };

/**
 * A job's events as a pull-based byte stream: its log after `afterSeq` (the Last-Event-ID) read page
 * by page only as fast as the reader takes it, then live events until the job ends. Log events carry
 * their sequence number as id. Everything stops when the reader leaves or `signal` aborts.
 */
export function openJobEvents(
  database: Database,
  hub: JobEventHub,
  jobId: string,
  afterSeq: number,
  signal: AbortSignal,
  opts: JobStreamOptions = {},
): { stream: ReadableStream<Uint8Array>; stats: JobStreamStats } {
  const pageRows = opts.pageRows ?? 1000;
  const maxLiveBytes = opts.maxLiveBytes ?? 1024 * 1024;
  const owner = opts.owner;
  if (owner !== undefined) {
    const open = hub.openStreams.get(owner) ?? 0;
    if (open >= (opts.maxPerOwner ?? 16)) {
      throw new AppError('rate_limited', `Too many open job streams (${open}); close one before following another job.`);
    }
    hub.openStreams.set(owner, open + 1);
  }
  const enc = new TextEncoder();
  const stats: JobStreamStats = { pagesRead: 0, pagesFromMemory: 0, liveBytes: 0, maxLiveBytesSeen: 0, fallbacks: 0, closed: false };
  let cursor = afterSeq;
  let replaying = true;
  let droppedSinceRead = false;
  let held: Held[] = [];
  let wake: (() => void) | null = null;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let finalState: JobRow | undefined;
  let ended = false;

  const poke = () => {
    wake?.();
    wake = null;
  };
  const release = () => {
    if (stats.closed) return;
    stats.closed = true;
    clearInterval(heartbeat);
    unsubscribe?.();
    held = [];
    stats.liveBytes = 0;
    if (owner !== undefined) {
      const n = (hub.openStreams.get(owner) ?? 1) - 1;
      if (n > 0) hub.openStreams.set(owner, n);
      else hub.openStreams.delete(owner);
    }
    poke();
  };
  const hold = (h: Held) => {
    if (stats.closed) return;
    held.push(h);
    stats.liveBytes += h.frame.length;
    if (stats.liveBytes > stats.maxLiveBytesSeen) stats.maxLiveBytesSeen = stats.liveBytes;
    if (stats.liveBytes > maxLiveBytes) {
      // The reader is too slow for the live rate: forget what is held and replay from the database.
      held = [];
      stats.liveBytes = 0;
      droppedSinceRead = true;
      if (!replaying) stats.fallbacks++;
      replaying = true;
    }
    poke();
  };
  const onEvent = (e: JobEvent) => {
    // The hub's event itself is held: one object per line whatever the number of followers.
    if (e.type === 'log') hold(e);
    else hold({ seq: null, frame: `event: state\ndata: ${stateData(e.job)}\n\n`, job: e.job });
  };
  // The worker stores its last lines before the final state, so once both are sent the log is complete.
  const endFrame = () => {
    if (ended || !finalState || cursor < finalState.logCount) return '';
    ended = true;
    return `event: end\ndata: ${JSON.stringify({ state: finalState.state })}\n\n`;
  };
  const noteState = (j: JobRow) => {
    if (isFinal(j.state)) finalState = j;
  };

  /** Sends one page of history; once it is caught up and the held events follow on exactly, goes live. */
  async function replayPage(): Promise<string> {
    droppedSinceRead = false;
    // Lines the hub still holds come from memory, already framed; older ones from the database.
    let rows: { seq: number; frame: string }[] | undefined = hub.recent(jobId, cursor, pageRows);
    if (rows) stats.pagesFromMemory++;
    else {
      rows = (await readJobLogs(database, jobId, cursor, pageRows)).map(logEvent);
      stats.pagesRead++;
    }
    let out = '';
    for (const r of rows) out += r.frame;
    if (rows.length) cursor = rows[rows.length - 1].seq;
    if (rows.length < pageRows) {
      const rest = held.filter((h) => h.seq === null || h.seq > cursor);
      const firstLog = rest.find((h) => h.seq !== null);
      if (!droppedSinceRead && (!firstLog || firstLog.seq === cursor + 1)) {
        held = rest;
        stats.liveBytes = rest.reduce((n, h) => n + h.frame.length, 0);
        replaying = false;
        const job = await getJob(database, jobId);
        noteState(job);
        // The state read now supersedes any state held from before it.
        held = held.filter((h) => h.seq !== null);
        out += `event: state\ndata: ${stateData(job)}\n\n`;
      }
    }
    return out;
  }

  function takeHeld(): string {
    let out = '';
    for (const h of held) {
      if (h.seq === null) {
        if (h.job) noteState(h.job);
        out += h.frame;
      } else if (h.seq > cursor) {
        cursor = h.seq;
        out += h.frame;
      }
    }
    held = [];
    stats.liveBytes = 0;
    return out;
  }

  const stream = new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        signal.addEventListener(
          'abort',
          () => {
            if (stats.closed) return;
            release();
            try {
              controller.close();
            } catch {
              /* already closed */
            }
          },
          { once: true },
        );
        if (signal.aborted) return release();
        controller.enqueue(enc.encode('retry: 2000\n\n'));
        unsubscribe = await hub.subscribe(jobId, onEvent);
        if (stats.closed) unsubscribe();
        heartbeat = setInterval(() => {
          hold({ seq: null, frame: `: ping ${Date.now()}\n\n` });
          hub.pump(jobId); // safety net should a notice be lost
        }, HEARTBEAT_MS);
      },
      async pull(controller) {
        try {
          for (;;) {
            if (stats.closed) return;
            let out = '';
            if (replaying) {
              // Give timers and other requests a turn between pages.
              if (stats.pagesRead + stats.pagesFromMemory > 0) await nextTurn();
              if (stats.closed) return;
              out = await replayPage();
            } else if (held.length) out = takeHeld();
            else {
              await new Promise<void>((resolve) => (wake = resolve));
              continue;
            }
            if (stats.closed) return;
            out += endFrame();
            if (out) controller.enqueue(enc.encode(out));
            if (ended) {
              release();
              controller.close();
            }
            if (out || ended) return;
          }
        } catch (e) {
          if (stats.closed) return;
          controller.enqueue(enc.encode(`event: error\ndata: ${JSON.stringify({ message: (e as Error).message })}\n\n`));
          release();
          controller.close();
        }
      },
      cancel() {
        release();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: opts.highWaterBytes ?? 64 * 1024 }),
  );
  return { stream, stats };
}

/** The job's events as a server-sent-events response (see openJobEvents). */
export function jobEventStream(
  database: Database,
  hub: JobEventHub,
  jobId: string,
  afterSeq: number,
  signal: AbortSignal,
  opts: JobStreamOptions = {},
): Response {
  return new Response(openJobEvents(database, hub, jobId, afterSeq, signal, opts).stream, { status: 200, headers: SSE_HEADERS });
}
