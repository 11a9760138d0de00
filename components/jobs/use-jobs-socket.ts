'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type LiveStatus, shareLiveStatus } from './live-status';
import { applyJobUpdate } from './queries';
import type { Job } from './view';

const MAX_BACKOFF_MS = 30_000;

export type { LiveStatus } from './live-status';

/**
 * Follows /ws/jobs: every job state change lands in the query cache. Reconnects with jittered
 * exponential backoff; returns the connection status (callers poll while it is not live) and
 * shares it with useJobsLive.
 */
export function useJobsSocket(): LiveStatus {
  const qc = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');

  useEffect(() => {
    const report = (s: LiveStatus) => {
      setStatus(s);
      shareLiveStatus(s);
    };
    let ws: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let everOpened = false;
    let stopped = false;

    const connect = () => {
      const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/jobs`;
      const socket = new WebSocket(url);
      ws = socket;
      socket.onopen = () => {
        attempt = 0;
        report('live');
        // Changes made while we were away were not pushed: catch up once.
        if (everOpened) {
          void qc.invalidateQueries({ queryKey: ['jobs'] });
          void qc.invalidateQueries({ queryKey: ['job'] });
        }
        everOpened = true;
      };
      socket.onmessage = (e) => {
        let msg: { type?: string; job?: Job };
        try {
          msg = JSON.parse(String(e.data));
        } catch {
          return;
        }
        if (msg.type === 'job' && msg.job?.id) applyJobUpdate(qc, msg.job);
      };
      socket.onclose = () => {
        if (ws !== socket) return;
        ws = null;
        report('reconnecting');
        if (stopped) return;
        const delay = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2);
        attempt++;
        timer = setTimeout(connect, delay);
      };
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      const s = ws;
      ws = null;
      s?.close(1000, 'page left');
      shareLiveStatus('connecting');
    };
  }, [qc]);

  return status;
}
