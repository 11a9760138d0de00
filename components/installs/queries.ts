'use client';

import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  bulkInstallAction,
  installSkillIntoConfigsAction,
  patchInstallAction,
  rebuildImageAction,
  removeInstallAction,
  retryInstallAction,
  stopInstallAction,
  updateInstallAction,
} from '@/app/(console)/sandboxes/install-actions';
import type { ConfigImageOut, InstallOut, installListOut } from '@/lib/installs/schema';
import { api } from '../api';
import { useOperation } from '../use-operation';

export type InstallList = z.output<typeof installListOut>;
export type { ConfigImageOut, InstallOut };

/** While a row installs or is removed, its list is polled this often. */
export const BUSY_POLL_MS = 2000;

export const installsKey = ['installs'] as const;
export const skillInstallsKey = (skillKey: string) => ['installs', 'skill', skillKey] as const;
export const configInstallsKey = (configId: string) => ['installs', 'config', configId] as const;
export const configImageKey = (configId: string) => ['installs', 'image', configId] as const;

/** Any install write changes rows on both pages and may change the config's image. */
const invalidate = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: installsKey });

export const isBusy = (r: Pick<InstallOut, 'state'>) => r.state === 'installing' || r.state === 'removing';
const pollWhileBusy = (data: InstallList | undefined) => (data?.items.some(isBusy) ? BUSY_POLL_MS : false);

export function useSkillInstalls(skillKey: string, enabled = true) {
  return useQuery({
    queryKey: skillInstallsKey(skillKey),
    enabled,
    queryFn: ({ signal }) => api<InstallList>(`/api/v1/skill-installs/${encodeURIComponent(skillKey)}`, { signal }),
    refetchInterval: (q) => pollWhileBusy(q.state.data),
  });
}

export function useConfigInstalls(configId: string) {
  return useQuery({
    queryKey: configInstallsKey(configId),
    queryFn: ({ signal }) => api<InstallList>(`/api/v1/sandbox-configs/${encodeURIComponent(configId)}/skills`, { signal }),
    refetchInterval: (q) => pollWhileBusy(q.state.data),
  });
}

/** The image changes when an install or removal ends: refetched while the config has busy rows. */
export function useConfigImage(configId: string, busy: boolean) {
  return useQuery({
    queryKey: configImageKey(configId),
    queryFn: ({ signal }) => api<ConfigImageOut>(`/api/v1/sandbox-configs/${encodeURIComponent(configId)}/image`, { signal }),
    refetchInterval: busy ? BUSY_POLL_MS : false,
  });
}

type Target = { id: string; skillKey: string };
const params = (v: Target) => ({ id: v.id, skillKey: v.skillKey });

export function useInstallIntoConfigs() {
  const qc = useQueryClient();
  return useOperation(installSkillIntoConfigsAction, {
    input: (v: { skillKey: string; configIds: string[]; notes?: string }) => ({
      params: { skillKey: v.skillKey },
      body: { configIds: v.configIds, notes: v.notes || undefined },
    }),
    onSettled: () => invalidate(qc),
  });
}

export function useBulkInstall() {
  const qc = useQueryClient();
  return useOperation(bulkInstallAction, {
    input: (v: { id: string; skillKeys: string[]; notes?: string }) => ({
      params: { id: v.id },
      body: { skillKeys: v.skillKeys, notes: v.notes || undefined },
    }),
    onSettled: () => invalidate(qc),
  });
}

export function useRetryInstall() {
  const qc = useQueryClient();
  return useOperation(retryInstallAction, {
    input: (v: Target & { notes?: string }) => ({ params: params(v), body: { notes: v.notes || undefined } }),
    onSettled: () => invalidate(qc),
  });
}

export function useUpdateInstall() {
  const qc = useQueryClient();
  return useOperation(updateInstallAction, {
    input: (v: Target & { notes?: string }) => ({ params: params(v), body: { notes: v.notes || undefined } }),
    onSettled: () => invalidate(qc),
  });
}

export function useStopInstall() {
  const qc = useQueryClient();
  return useOperation(stopInstallAction, { input: (v: Target) => ({ params: params(v) }), onSettled: () => invalidate(qc) });
}

export function usePatchInstall() {
  const qc = useQueryClient();
  return useOperation(patchInstallAction, {
    input: (v: Target & { enabled: boolean }) => ({ params: params(v), body: { enabled: v.enabled } }),
    onSettled: () => invalidate(qc),
  });
}

export function useRemoveInstall() {
  const qc = useQueryClient();
  return useOperation(removeInstallAction, { input: (v: Target) => ({ params: params(v) }), onSettled: () => invalidate(qc) });
}

export function useRebuildImage() {
  const qc = useQueryClient();
  return useOperation(rebuildImageAction, {
    input: (v: { id: string; reason?: string }) => ({ params: { id: v.id }, body: { reason: v.reason || undefined } }),
    onSettled: () => invalidate(qc),
  });
}
