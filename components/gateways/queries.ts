'use client';

import { type QueryClient, useQuery } from '@tanstack/react-query';
import { gatewaysApi } from '@/lib/api/contracts/gateways';
import { jobsApi } from '@/lib/api/contracts/jobs';
import { get } from '../api';
import type { Job } from '../jobs/view';

export const gatewaysKey = ['gateways'] as const;
export const gatewayKey = (id: string) => ['gateways', 'one', id] as const;

export const invalidateGateways = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: gatewaysKey });

export function useGateways(opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...gatewaysKey, 'list'],
    queryFn: ({ signal }) => get(gatewaysApi.listGateways, { signal }),
    enabled: opts.enabled ?? true,
    refetchInterval: 15_000,
  });
}

export function useGateway(id: string) {
  return useQuery({ queryKey: gatewayKey(id), queryFn: ({ signal }) => get(gatewaysApi.getGateway, { params: { id }, signal }), retry: false });
}

/** This gateway's recent sync and verify jobs (the job list filtered by kind, then by the job's gatewayId). */
export function useGatewayJobs(id: string) {
  return useQuery({
    queryKey: [...gatewaysKey, 'jobs', id],
    queryFn: async ({ signal }) => {
      const pages = await Promise.all(
        ['gateway.sync', 'gateway.verify'].map((kind) => get(jobsApi.listJobs, { query: { kind, sort: 'created_desc', limit: 50 }, signal })),
      );
      return pages
        .flatMap((p) => p.items)
        .filter((j: Job) => (j.params as { gatewayId?: string } | null)?.gatewayId === id)
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))
        .slice(0, 10);
    },
    refetchInterval: (q) => (q.state.data?.some((j) => j.state === 'queued' || j.state === 'running') ? 2000 : 10_000),
  });
}

/** The `skilldock sync` clients (of one agent, or all), as they last reported. */
export function useFolderClients(agentId?: string, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...gatewaysKey, 'folder-clients', agentId ?? null],
    queryFn: ({ signal }) => get(gatewaysApi.listFolderClients, { query: { agentId }, signal }),
    enabled: opts.enabled ?? true,
    refetchInterval: 15_000,
  });
}
