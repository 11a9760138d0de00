'use client';

import { useSyncExternalStore } from 'react';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

// Whether a mounted socket is feeding the job cache right now, for readers of single jobs (which
// then stop polling): one page holds the socket at a time.
let shared: LiveStatus = 'connecting';
const listeners = new Set<() => void>();
export function shareLiveStatus(s: LiveStatus) {
  shared = s;
  for (const fn of listeners) fn();
}
const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

/** True while /ws/jobs is connected and pushing job changes into the query cache. */
export function useJobsLive(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => shared === 'live',
    () => false,
  );
}
