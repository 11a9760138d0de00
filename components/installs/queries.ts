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
import { installsApi } from '@/lib/api/contracts/installs';
import type { ActionResult } from '@/lib/http/action-error';
import type { SandboxGatingOut } from '@/lib/installs/gating/schema';
import type { ConfigImageOut, InstallOut, installListOut } from '@/lib/installs/schema';
import { get } from '../api';
import { useOperation } from '../use-operation';

export type InstallList = z.output<typeof installListOut>;
export type { ConfigImageOut, InstallOut, SandboxGatingOut };

/** While a row installs or is removed, its list is polled this often. */
export const BUSY_POLL_MS = 2000;

export const installsKey = ['installs'] as const;
export const skillInstallsKey = (skillKey: string) => ['installs', 'skill', skillKey] as const;
export const configInstallsKey = (configId: string) => ['installs', 'config', configId] as const;
export const configImageKey = (configId: string) => ['installs', 'image', configId] as const;

/** Any install write changes rows on both pages and may change the config's image. */
export const invalidateInstalls = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: installsKey });

export const isBusy = (r: Pick<InstallOut, 'state'>) => r.state === 'installing' || r.state === 'removing';
const pollWhileBusy = (data: InstallList | undefined) => (data?.items.some(isBusy) ? BUSY_POLL_MS : false);

function useInstallList(queryKey: readonly string[], read: (signal: AbortSignal) => Promise<InstallList>, enabled = true) {
  return useQuery({
    queryKey,
    enabled,
    queryFn: ({ signal }) => read(signal),
    refetchInterval: (q) => pollWhileBusy(q.state.data),
  });
}

export const useSkillInstalls = (skillKey: string, enabled = true) =>
  useInstallList(skillInstallsKey(skillKey), (signal) => get(installsApi.listSkillInstalls, { params: { skillKey }, signal }), enabled);

export const useConfigInstalls = (configId: string) =>
  useInstallList(configInstallsKey(configId), (signal) => get(installsApi.listConfigSkills, { params: { id: configId }, signal }));

/** The image changes when an install or removal ends: refetched while the config has busy rows. */
export function useConfigImage(configId: string, busy: boolean) {
  return useQuery({
    queryKey: configImageKey(configId),
    queryFn: ({ signal }) => get(installsApi.getConfigImage, { params: { id: configId }, signal }),
    refetchInterval: busy ? BUSY_POLL_MS : false,
  });
}

/** Each sandbox config's verdict on a skill, from a probe of its image (cached per image on the server). */
export function useSandboxGating(skillId: string, enabled = true) {
  return useQuery({
    queryKey: [...installsKey, 'gating', skillId],
    enabled,
    queryFn: ({ signal }) => get(installsApi.getSkillSandboxGating, { params: { id: skillId }, signal }),
    staleTime: 30_000,
  });
}

type Action<I, O> = (input: I) => Promise<ActionResult<O>>;

/** An install write as a mutation; every install view is refetched when it settles. */
function useInstallOp<I, O, V>(fn: Action<I, O>, input: (v: V) => I) {
  const qc = useQueryClient();
  return useOperation(fn, { input, onSettled: () => invalidateInstalls(qc) });
}

type Target = { id: string; skillKey: string };
const params = (v: Target) => ({ id: v.id, skillKey: v.skillKey });
const withNotes = (v: Target & { notes?: string }) => ({ params: params(v), body: { notes: v.notes || undefined } });

export const useInstallIntoConfigs = () =>
  useInstallOp(installSkillIntoConfigsAction, (v: { skillKey: string; configIds: string[]; notes?: string }) => ({
    params: { skillKey: v.skillKey },
    body: { configIds: v.configIds, notes: v.notes || undefined },
  }));

export const useBulkInstall = () =>
  useInstallOp(bulkInstallAction, (v: { id: string; skillKeys: string[]; notes?: string }) => ({
    params: { id: v.id },
    body: { skillKeys: v.skillKeys, notes: v.notes || undefined },
  }));

export const useRetryInstall = () => useInstallOp(retryInstallAction, withNotes);
export const useUpdateInstall = () => useInstallOp(updateInstallAction, withNotes);
export const useStopInstall = () => useInstallOp(stopInstallAction, (v: Target) => ({ params: params(v) }));
export const useRemoveInstall = () => useInstallOp(removeInstallAction, (v: Target) => ({ params: params(v) }));
export const usePatchInstall = () =>
  useInstallOp(patchInstallAction, (v: Target & { enabled: boolean }) => ({ params: params(v), body: { enabled: v.enabled } }));

export const useRebuildImage = () =>
  useInstallOp(rebuildImageAction, (v: { id: string; reason?: string }) => ({ params: { id: v.id }, body: { reason: v.reason || undefined } }));
