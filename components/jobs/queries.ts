'use client';

import { type InfiniteData, keepPreviousData, type QueryClient, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { jobsApi } from '@/lib/api/contracts/jobs';
import { get } from '../api';
import { useJobsLive } from './live-status';
import { isFinal, type Job, type JobFilters, type JobPage, jobMatches } from './view';

const PAGE_SIZE = 50;
/** While live updates are down, lists and jobs are polled this often. */
export const POLL_MS = 5000;

export const jobsKey = (filters: JobFilters) => ['jobs', filters] as const;
export const durationsKey = ['jobs', { view: 'durations' }] as const;
export const jobKey = (id: string) => ['job', id] as const;

/** One page of the job list under these filters. */
const listJobs = (f: JobFilters, opts: { before?: string; limit?: number; signal?: AbortSignal }) =>
  get(jobsApi.listJobs, {
    query: { state: f.state, kind: f.kind, q: f.q.trim(), sort: f.sort, limit: opts.limit ?? PAGE_SIZE, before: opts.before },
    signal: opts.signal,
  });

/** The filtered job list, newest (or oldest) first, one keyset page at a time. */
export function useJobsList(filters: JobFilters, live: boolean) {
  return useInfiniteQuery({
    queryKey: jobsKey(filters),
    queryFn: ({ pageParam, signal }) => listJobs(filters, { before: pageParam, signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    // Keep the current rows on screen while another filter loads.
    placeholderData: keepPreviousData,
    refetchInterval: live ? false : POLL_MS,
  });
}

/** The most recent jobs, for the durations chart (finished ones are picked out by the chart). */
export function useRecentJobs(live: boolean) {
  return useQuery({
    queryKey: durationsKey,
    queryFn: ({ signal }) => listJobs({ state: '', kind: '', q: '', sort: 'created_desc' }, { limit: 100, signal }),
    refetchInterval: live ? false : POLL_MS,
  });
}

export function useJobKinds() {
  return useQuery({
    queryKey: ['job-kinds'],
    queryFn: ({ signal }) => get(jobsApi.jobKinds, { signal }),
    staleTime: 5 * 60_000,
    select: (d) => d.items,
  });
}

/** A fetch that started before a pushed "ended" event must not bring the job back to running. */
export const keepEnded = (old: unknown, next: unknown) => (old && isFinal((old as Job).state) && next && !isFinal((next as Job).state) ? old : next);

/** One job: read once, then kept current by /ws/jobs; polled (when asked) only while the socket is down. */
export function useJob(id: string, opts: { poll: boolean }) {
  const live = useJobsLive();
  return useQuery({
    queryKey: jobKey(id),
    queryFn: ({ signal }) => get(jobsApi.getJob, { params: { id }, signal }),
    structuralSharing: keepEnded,
    refetchInterval: (q) => (opts.poll && !live && q.state.data && !isFinal(q.state.data.state) ? POLL_MS : false),
  });
}

const isInfinite = (d: unknown): d is InfiniteData<JobPage> => !!d && typeof d === 'object' && Array.isArray((d as InfiniteData<JobPage>).pages);

/**
 * Puts a pushed job into every cached list: replaced in place where it is shown and still belongs;
 * lists that gain it (a new job) or lose it (it left the filtered state) are refetched.
 */
export function applyJobUpdate(qc: QueryClient, job: Job): void {
  qc.setQueryData<Job>(jobKey(job.id), (old) => (old ? { ...old, ...job } : old));
  for (const [key, data] of qc.getQueriesData<InfiniteData<JobPage> | JobPage>({ queryKey: ['jobs'] })) {
    if (!data) continue;
    const filters = key[1] as JobFilters | { view: 'durations' };
    const belongs = 'view' in filters ? true : jobMatches(filters, job);
    const pages = isInfinite(data) ? data.pages : [data];
    const found = pages.some((p) => p.items.some((j) => j.id === job.id));
    if (found && belongs) {
      const swap = (p: JobPage): JobPage => ({ ...p, items: p.items.map((j) => (j.id === job.id ? { ...j, ...job } : j)) });
      qc.setQueryData(key, isInfinite(data) ? { ...data, pages: data.pages.map(swap) } : swap(data));
    } else if (found !== belongs) {
      // Progress events come several times a second: let a refetch already under way finish
      // instead of restarting it on every event (which would starve the list of fresh data).
      void qc.invalidateQueries({ queryKey: key, exact: true }, { cancelRefetch: false });
    }
  }
}
