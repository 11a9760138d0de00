'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { jobKey } from '../jobs/queries';
import type { Job } from '../jobs/types';
import { useJobStartedToast } from '../jobs/use-start-job';
import type { ApplyAllResponse, GithubOverrides, GithubOverview, GithubReleases, PackageAction, PackageList, RefreshResponse, RuntimeReport, UpdatesView } from './types';

export const runtimesKey = ['packages', 'runtimes'] as const;
export const packagesKey = (manager: string) => ['packages', 'list', manager] as const;
export const updatesKey = ['packages', 'updates'] as const;
export const githubKey = ['packages', 'github'] as const;

/** The detection report; `refresh()` asks the server to detect again instead of serving its cache. */
export function useRuntimes() {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: runtimesKey,
    queryFn: ({ signal }) => api<RuntimeReport>('/api/v1/packages/runtimes', { signal }),
    staleTime: 30_000,
  });
  const refresh = useMutation({
    mutationFn: () => api<RuntimeReport>('/api/v1/packages/runtimes?refresh=true'),
    onSuccess: (report) => {
      qc.setQueryData(runtimesKey, report);
      void qc.invalidateQueries({ queryKey: ['packages', 'list'] });
    },
  });
  return { query, refresh };
}

/** Every installed package of one manager (system matches apt and apk); filtered and sorted on the client. */
export function usePackages(manager: string) {
  return useQuery({
    queryKey: packagesKey(manager),
    queryFn: ({ signal }) => api<PackageList>(`/api/v1/packages?manager=${encodeURIComponent(manager)}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** After a package job ends, what is installed (and so what is detected) may have changed. */
export function invalidatePackages(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: ['packages'] });
}

/** POST /api/v1/packages/{install|update|uninstall}: a 202 with the queued job. */
export function usePackageJob(onStarted: (job: Job) => void) {
  const qc = useQueryClient();
  const started = useJobStartedToast();
  return useMutation({
    mutationFn: (input: { action: PackageAction; spec: string; toVersion?: string }) =>
      api<Job>(`/api/v1/packages/${input.action}`, { method: 'POST', body: input.toVersion ? { spec: input.spec, toVersion: input.toVersion } : { spec: input.spec } }),
    onSuccess: (job, input) => {
      qc.setQueryData(jobKey(job.id), job);
      void qc.invalidateQueries({ queryKey: ['jobs'] });
      started(job, input.action === 'install' ? 'Install started' : input.action === 'update' ? 'Update started' : 'Uninstall started');
      onStarted(job);
    },
  });
}

/** Pending updates, pins and each source's freshness. A stale read starts a background check (refreshJobId). */
export function useUpdates() {
  return useQuery({
    queryKey: updatesKey,
    queryFn: ({ signal }) => api<UpdatesView>('/api/v1/packages/updates', { signal }),
    staleTime: 30_000,
  });
}

const seedJob = (qc: QueryClient, job: Job) => {
  qc.setQueryData(jobKey(job.id), job);
  void qc.invalidateQueries({ queryKey: ['jobs'] });
};

/** POST /api/v1/packages/updates/refresh: queues a check (or returns the one already running). */
export function useRefreshUpdates() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<RefreshResponse>('/api/v1/packages/updates/refresh', { method: 'POST' }),
    onSuccess: (r) => seedJob(qc, r.job),
  });
}

/** POST /api/v1/packages/updates/apply-all: one parent job, one update job per chosen package. */
export function useApplyAll() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (packages: string[]) => api<ApplyAllResponse>('/api/v1/packages/updates/apply-all', { method: 'POST', body: { packages } }),
    onSuccess: (r) => {
      for (const c of r.children) qc.setQueryData(jobKey(c.id), c);
      seedJob(qc, r.job);
    },
  });
}

/** POST /api/v1/packages/pins: hold or release a package; the updates table shows the change. */
export function usePin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { spec: string; pinned: boolean; reason?: string }) => api<{ pinned: boolean }>('/api/v1/packages/pins', { method: 'POST', body: input }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: updatesKey }),
  });
}

/** Installed GitHub-release packages, this host's target and the last rate limit seen (refreshed with the other package lists). */
export function useGithubOverview() {
  return useQuery({ queryKey: githubKey, queryFn: ({ signal }) => api<GithubOverview>('/api/v1/packages/github', { signal }), staleTime: 30_000 });
}

/** Releases of one repository with the asset decision for this host; kept apart from ['packages'] so a job's end does not re-list them. */
export function useGithubReleases(repo: string | null, preview: { assetPattern?: string } = {}) {
  return useQuery({
    queryKey: ['github-releases', repo, preview.assetPattern ?? ''] as const,
    queryFn: ({ signal }) => {
      const qs = new URLSearchParams({ repo: repo!, limit: '10', ...(preview.assetPattern ? { assetPattern: preview.assetPattern } : {}) });
      return api<GithubReleases>(`/api/v1/packages/github-releases?${qs}`, { signal });
    },
    enabled: !!repo,
    staleTime: 60_000,
    retry: false,
  });
}

export type GithubJobInput =
  | { action: 'install'; spec: string; overrides?: GithubOverrides; takeover?: boolean }
  | { action: 'update'; spec: string; toVersion?: string }
  | { action: 'uninstall'; spec: string }
  | { action: 'rollback'; name: string; version: string }
  | { action: 'repair' };

const GITHUB_JOB_PATH: Record<GithubJobInput['action'], string> = {
  install: '/api/v1/packages/install',
  update: '/api/v1/packages/update',
  uninstall: '/api/v1/packages/uninstall',
  rollback: '/api/v1/packages/github/rollback',
  repair: '/api/v1/packages/github/repair',
};

/** Starts a GitHub-release job (install/update/uninstall through the package routes, rollback and repair through their own); a 202 with the job. */
export function useGithubJob(onStarted: (job: Job, input: GithubJobInput) => void) {
  const qc = useQueryClient();
  const started = useJobStartedToast();
  return useMutation({
    mutationFn: (input: GithubJobInput) => {
      const { action, ...body } = input;
      return api<Job>(GITHUB_JOB_PATH[action], { method: 'POST', body: action === 'repair' ? undefined : body });
    },
    onSuccess: (job, input) => {
      seedJob(qc, job);
      started(job, `${input.action[0].toUpperCase()}${input.action.slice(1)} started`);
      onStarted(job, input);
    },
  });
}

/** Opts a GitHub package in or out of pre-releases; the next update check uses the channel. */
export function useGithubChannel() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string; channel: 'stable' | 'prerelease' }) => api<{ name: string; channel: string }>('/api/v1/packages/github/channel', { method: 'POST', body: input }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: githubKey }),
  });
}
