'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { jobKey } from '../jobs/queries';
import type { Job } from '../jobs/types';
import { useJobStartedToast } from '../jobs/use-start-job';
import type { PackageAction, PackageList, RuntimeReport } from './types';

export const runtimesKey = ['packages', 'runtimes'] as const;
export const packagesKey = (manager: string) => ['packages', 'list', manager] as const;

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
