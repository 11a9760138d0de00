'use client';

import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  applyAllUpdatesAction,
  githubChannelAction,
  githubRepairAction,
  githubRollbackAction,
  installPackageAction,
  pinPackageAction,
  refreshUpdatesAction,
  uninstallPackageAction,
  updatePackageAction,
} from '@/app/(console)/runtime/actions';
import { githubApi } from '@/lib/api/contracts/github';
import { packagesApi } from '@/lib/api/contracts/packages';
import { get } from '../api';
import { jobKey } from '../jobs/queries';
import { useJobStartedToast } from '../jobs/use-start-job';
import type { Job } from '../jobs/view';
import { callAction, useOperation } from '../use-operation';
import type { GithubOverrides, PackageAction } from './view';

export const runtimesKey = ['packages', 'runtimes'] as const;
export const packagesKey = (manager: string) => ['packages', 'list', manager] as const;
export const updatesKey = ['packages', 'updates'] as const;
export const githubKey = ['packages', 'github'] as const;

/** The detection report; `refresh()` asks the server to detect again instead of serving its cache. */
export function useRuntimes() {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: runtimesKey,
    queryFn: ({ signal }) => get(packagesApi.packageRuntimes, { signal }),
    staleTime: 30_000,
  });
  const refresh = useMutation({
    mutationFn: () => get(packagesApi.packageRuntimes, { query: { refresh: true } }),
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
    queryFn: ({ signal }) => get(packagesApi.listPackages, { query: { manager }, signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** After a package job ends, what is installed (and so what is detected) may have changed. */
export function invalidatePackages(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: ['packages'] });
}

/** Installs, updates or uninstalls a package (server actions): the queued job. */
function packageJob(input: { action: PackageAction; spec: string; toVersion?: string }): Promise<Job> {
  if (input.action === 'install') return callAction(installPackageAction, { body: { spec: input.spec } });
  if (input.action === 'uninstall') return callAction(uninstallPackageAction, { body: { spec: input.spec } });
  return callAction(updatePackageAction, { body: input.toVersion ? { spec: input.spec, toVersion: input.toVersion } : { spec: input.spec } });
}

export function usePackageJob(onStarted: (job: Job) => void) {
  const qc = useQueryClient();
  const started = useJobStartedToast();
  return useMutation({
    mutationFn: packageJob,
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
    queryFn: ({ signal }) => get(packagesApi.packageUpdates, { signal }),
    staleTime: 30_000,
  });
}

const seedJob = (qc: QueryClient, job: Job) => {
  qc.setQueryData(jobKey(job.id), job);
  void qc.invalidateQueries({ queryKey: ['jobs'] });
};

/** Queues an update check (or returns the one already running). */
export function useRefreshUpdates() {
  const qc = useQueryClient();
  return useOperation(refreshUpdatesAction, {
    input: () => ({}),
    onSuccess: (r) => seedJob(qc, r.job),
  });
}

/** Update All: one parent job, one update job per chosen package. */
export function useApplyAll() {
  const qc = useQueryClient();
  return useOperation(applyAllUpdatesAction, {
    input: (packages: string[]) => ({ body: { packages } }),
    onSuccess: (r) => {
      for (const c of r.children) qc.setQueryData(jobKey(c.id), c);
      seedJob(qc, r.job);
    },
  });
}

/** Holds or releases a package; the updates table shows the change. */
export function usePin() {
  const qc = useQueryClient();
  return useOperation(pinPackageAction, {
    input: (v: { spec: string; pinned: boolean; reason?: string }) => ({ body: v }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: updatesKey }),
  });
}

/** Installed GitHub-release packages, this host's target and the last rate limit seen (refreshed with the other package lists). */
export function useGithubOverview() {
  return useQuery({ queryKey: githubKey, queryFn: ({ signal }) => get(githubApi.githubPackages, { signal }), staleTime: 30_000 });
}

/** Releases of one repository with the asset decision for this host; kept apart from ['packages'] so a job's end does not re-list them. */
export function useGithubReleases(repo: string | null, preview: { assetPattern?: string } = {}) {
  return useQuery({
    queryKey: ['github-releases', repo, preview.assetPattern ?? ''] as const,
    queryFn: ({ signal }) => {
      return get(githubApi.githubReleases, { query: { repo, limit: 10, assetPattern: preview.assetPattern }, signal });
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

function githubJob(input: GithubJobInput): Promise<Job> {
  const { action, ...body } = input;
  if (input.action === 'install') return callAction(installPackageAction, { body: { spec: input.spec, overrides: input.overrides, takeover: input.takeover } });
  if (input.action === 'update') return callAction(updatePackageAction, { body: { spec: input.spec, toVersion: input.toVersion } });
  if (input.action === 'uninstall') return callAction(uninstallPackageAction, { body: { spec: input.spec } });
  if (input.action === 'rollback') return callAction(githubRollbackAction, { body: { name: input.name, version: input.version } });
  void body;
  return callAction(githubRepairAction, {});
}

/** Starts a GitHub-release job (install/update/uninstall through the package operations, rollback and repair through their own): the job. */
export function useGithubJob(onStarted: (job: Job, input: GithubJobInput) => void) {
  const qc = useQueryClient();
  const started = useJobStartedToast();
  return useMutation({
    mutationFn: githubJob,
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
  return useOperation(githubChannelAction, {
    input: (v: { name: string; channel: 'stable' | 'prerelease' }) => ({ body: v }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: githubKey }),
  });
}
