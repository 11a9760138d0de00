import type { Database } from '@/db/client';
import type { JobEventHub } from './hub';
import { getJob, isFinal, readJobLogs } from './queue';
import { type JobEvent, type JobRow, logEvent } from './types';

const REPLAY_PAGE = 5000;
const HEARTBEAT_MS = 15_000;
/** A follower this far behind (bytes queued) is dropped; it reconnects with Last-Event-ID and resumes. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-store, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
  'content-encoding': 'identity',
};

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

/**
 * Streams a job as server-sent events: its state, then every log line after `afterSeq` (the
 * Last-Event-ID), then live events until the job ends. Log events carry their sequence number as id.
 */
export function jobEventStream(database: Database, hub: JobEventHub, jobId: string, afterSeq: number, signal: AbortSignal): Response {
  const enc = new TextEncoder();
  let cursor = afterSeq;
  let closed = false;
  let pending = '';
  let flushQueued = false;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let replaying = true;
  const early: JobEvent[] = [];

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe?.();
        try {
          if (pending) controller.enqueue(enc.encode(pending));
          controller.close();
        } catch {
          /* already closed by the client */
        }
      };
      const write = (chunk: string) => {
        if (closed) return;
        pending += chunk;
        if (flushQueued) return;
        flushQueued = true;
        setImmediate(() => {
          flushQueued = false;
          if (closed || !pending) return;
          if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) return close();
          controller.enqueue(enc.encode(pending));
          pending = '';
        });
      };
      let finalState: JobRow | undefined;
      let ended = false;
      // The worker stores its last lines before the final state, so once both are sent the log is complete.
      const maybeEnd = () => {
        if (ended || !finalState || cursor < finalState.logCount) return;
        ended = true;
        write(`event: end\ndata: ${JSON.stringify({ state: finalState.state })}\n\n`);
        setImmediate(close);
      };
      const sendLog = (e: Extract<JobEvent, { type: 'log' }>) => {
        if (e.seq <= cursor) return;
        cursor = e.seq;
        write(e.frame);
        maybeEnd();
      };
      const sendState = (j: JobRow) => {
        write(`event: state\ndata: ${stateData(j)}\n\n`);
        if (isFinal(j.state)) finalState = j;
        maybeEnd();
      };
      const onEvent = (e: JobEvent) => {
        if (replaying) return void early.push(e);
        if (e.type === 'log') sendLog(e);
        else sendState(e.job);
      };
      signal.addEventListener('abort', close, { once: true });

      void (async () => {
        try {
          write('retry: 2000\n\n');
          unsubscribe = await hub.subscribe(jobId, onEvent);
          await getJob(database, jobId); // 404 before any replay
          for (;;) {
            const rows = await readJobLogs(database, jobId, cursor, REPLAY_PAGE);
            for (const r of rows) sendLog(logEvent(r));
            if (rows.length < REPLAY_PAGE || closed) break;
          }
          replaying = false;
          for (const e of early.splice(0)) onEvent(e);
          sendState(await getJob(database, jobId));
          heartbeat = setInterval(() => {
            write(`: ping ${Date.now()}\n\n`);
            hub.pump(jobId); // safety net should a notice be lost
          }, HEARTBEAT_MS);
        } catch (e) {
          write(`event: error\ndata: ${JSON.stringify({ message: (e as Error).message })}\n\n`);
          setImmediate(close);
        }
      })();
    },
    cancel() {
      closed = true;
      clearInterval(heartbeat);
      unsubscribe?.();
    },
  });
  return new Response(stream, { status: 200, headers: SSE_HEADERS });
}
