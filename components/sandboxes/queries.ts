'use client';

import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  cloneSandboxConfigAction,
  createSandboxConfigAction,
  deleteSandboxConfigAction,
  setConfigEnvAction,
  setMyEnvAction,
  unsetConfigEnvAction,
  unsetMyEnvAction,
  updateSandboxConfigAction,
} from '@/app/(console)/sandboxes/actions';
import { sandboxConfigsApi } from '@/lib/api/contracts/sandboxes';
import type { CreateConfigInput, PatchConfigInput, SandboxConfigView, sandboxConfigDetailOut } from '@/lib/sandbox/config/schema';
import type { personalEnvInput, personalEnvUnset } from '@/lib/sandbox/env/rules';
import { get } from '../api';
import { useOperation } from '../use-operation';

export type ConfigCardView = SandboxConfigView & { instances: number | null };

export const sandboxesKey = ['sandbox-configs'] as const;
export const configEnvKey = (id: string) => ['sandbox-configs', 'env', id] as const;
const invalidate = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: sandboxesKey });

export function useSandboxConfigs() {
  return useQuery({ queryKey: sandboxesKey, queryFn: ({ signal }) => get(sandboxConfigsApi.listSandboxConfigs, { signal }) });
}

export type ConfigDetail = z.infer<typeof sandboxConfigDetailOut>;
export type ConfigUsageView = ConfigDetail['usage'];
/** Under sandboxesKey, so a write to any config refreshes it too. */
export const configDetailKey = (id: string) => ['sandbox-configs', 'detail', id] as const;

/** One config with what uses it (its running sandboxes and bound agents), read when `enabled`. */
export function useConfigDetail(id: string, enabled = true) {
  return useQuery({
    queryKey: configDetailKey(id),
    enabled,
    queryFn: ({ signal }) => get(sandboxConfigsApi.getSandboxConfig, { params: { id }, signal }),
  });
}

export function useConfigEnv(id: string | null) {
  return useQuery({
    queryKey: configEnvKey(id ?? ''),
    enabled: !!id,
    queryFn: ({ signal }) => get(sandboxConfigsApi.listConfigEnv, { params: { id: id ?? '' }, signal }),
  });
}

export function useCreateConfig() {
  const qc = useQueryClient();
  return useOperation(createSandboxConfigAction, { input: (v: CreateConfigInput) => ({ body: v }), onSettled: () => invalidate(qc) });
}
export function useUpdateConfig() {
  const qc = useQueryClient();
  return useOperation(updateSandboxConfigAction, {
    input: (v: { id: string; patch: PatchConfigInput }) => ({ params: { id: v.id }, body: v.patch }),
    onSettled: () => invalidate(qc),
  });
}
export function useDeleteConfig() {
  const qc = useQueryClient();
  return useOperation(deleteSandboxConfigAction, {
    input: (v: { id: string; force?: boolean }) => ({ params: { id: v.id }, ...(v.force ? { query: { force: 'true' as const } } : {}) }),
    onSettled: () => invalidate(qc),
  });
}
export function useCloneConfig() {
  const qc = useQueryClient();
  return useOperation(cloneSandboxConfigAction, {
    input: (v: { id: string; name: string }) => ({ params: { id: v.id }, body: { name: v.name } }),
    onSettled: () => invalidate(qc),
  });
}
export function useSetConfigEnv() {
  const qc = useQueryClient();
  return useOperation(setConfigEnvAction, {
    input: (v: { id: string; name: string; value: string }) => ({ params: { id: v.id }, body: { name: v.name, value: v.value } }),
    onSettled: () => invalidate(qc),
  });
}
export function useUnsetConfigEnv() {
  const qc = useQueryClient();
  return useOperation(unsetConfigEnvAction, {
    input: (v: { id: string; name: string }) => ({ params: { id: v.id }, body: { name: v.name } }),
    onSettled: () => invalidate(qc),
  });
}

export const myEnvKey = ['me', 'env'] as const;

export function useMyEnv() {
  return useQuery({ queryKey: myEnvKey, queryFn: ({ signal }) => get(sandboxConfigsApi.listMyEnv, { signal }) });
}
export function useSetMyEnv() {
  const qc = useQueryClient();
  return useOperation(setMyEnvAction, {
    input: (v: z.input<typeof personalEnvInput>) => ({ body: v }),
    onSettled: () => void qc.invalidateQueries({ queryKey: myEnvKey }),
  });
}
export function useUnsetMyEnv() {
  const qc = useQueryClient();
  return useOperation(unsetMyEnvAction, {
    input: (v: z.input<typeof personalEnvUnset>) => ({ body: v }),
    onSettled: () => void qc.invalidateQueries({ queryKey: myEnvKey }),
  });
}
