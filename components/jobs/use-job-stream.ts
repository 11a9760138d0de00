'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { LogStore } from './log-store';
import { jobKey } from './queries';
import type { Job, LogLine } from './view';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'error';

/**
 * Follows /api/v1/jobs/{id}/events: log lines go into a LogStore (the view re-renders at most once
 * per frame), state events update the ['job', id] cache. The browser's EventSource reconnects by
 * itself and resends Last-Event-ID; a manual reconnect resumes after the last line held.
 */
export function useJobStream(id: string) {
  const qc = useQueryClient();
  const storeRef = useRef<LogStore>(null);
  storeRef.current ??= new LogStore();
  const store = storeRef.current;
  const [count, setCount] = useState(0);
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt reconnects the stream
  useEffect(() => {
    let raf = 0;
    let done = false;
    const flush = () => {
      cancelAnimationFrame(raf);
      raf = 0;
      setCount(store.lines.length + store.dropped);
    };
    const schedule = () => {
      if (!raf) raf = requestAnimationFrame(flush);
    };

    setStatus('connecting');
    setError(null);
    const url = `/api/v1/jobs/${encodeURIComponent(id)}/events${store.lastSeq ? `?lastEventId=${store.lastSeq}` : ''}`;
    const es = new EventSource(url);
    const stop = (next: StreamStatus, message: string | null = null) => {
      done = true;
      es.close();
      flush();
      setStatus(next);
      setError(message);
    };

    es.onopen = () => setStatus('live');
    es.addEventListener('log', (e) => {
      let line: LogLine;
      try {
        line = JSON.parse((e as MessageEvent<string>).data);
      } catch {
        return;
      }
      if (store.push(line)) schedule();
    });
    es.addEventListener('state', (e) => {
      let s: Partial<Job>;
      try {
        s = JSON.parse((e as MessageEvent<string>).data);
      } catch {
        return;
      }
      qc.setQueryData<Job>(jobKey(id), (old) => (old ? { ...old, ...s } : old));
    });
    es.addEventListener('end', () => {
      stop('ended');
      void qc.invalidateQueries({ queryKey: jobKey(id) });
    });
    es.addEventListener('error', (e) => {
      if (done) return;
      // The server reports a failure as an "error" event with a message; a dropped connection has none.
      const data = e instanceof MessageEvent && typeof e.data === 'string' ? e.data : '';
      if (data) {
        let message = 'The log stream failed.';
        try {
          message = (JSON.parse(data) as { message?: string }).message ?? message;
        } catch {
          /* keep the generic message */
        }
        return stop('error', message);
      }
      if (es.readyState === EventSource.CLOSED)
        return stop('error', 'The live log could not be opened: the job may be gone, or your session ended. Reload the page to sign in again.');
      setStatus('reconnecting');
    });

    return () => {
      done = true;
      es.close();
      cancelAnimationFrame(raf);
    };
  }, [id, qc, store, attempt]);

  const reconnect = useCallback(() => setAttempt((a) => a + 1), []);
  return { store, count, status, error, reconnect };
}
