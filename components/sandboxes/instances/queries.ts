'use client';

import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { execSandboxAction, recycleInstanceAction, removeSandboxAction, startSandboxAction } from '@/app/(console)/sandboxes/actions';
import { sandboxInstancesApi } from '@/lib/api/contracts/sandbox-instances';
import type { execInput, fileListOut, instanceListOut, instanceOut, statsOut } from '@/lib/sandbox/instances/schema';
import { get, urlOf } from '../../api';
import { useOperation } from '../../use-operation';

export type Instance = z.output<typeof instanceOut>;
export type InstanceList = z.output<typeof instanceListOut>;
export type FileList = z.output<typeof fileListOut>;
export type StatsSample = z.output<typeof statsOut>;

export const instancesKey = ['sandboxes'] as const;
const invalidate = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: instancesKey });

export function useInstances() {
  return useQuery({ queryKey: instancesKey, queryFn: ({ signal }) => get(sandboxInstancesApi.listSandboxes, { signal }), refetchInterval: 15_000 });
}
export function useInstance(id: string) {
  return useQuery({ queryKey: [...instancesKey, id], queryFn: ({ signal }) => get(sandboxInstancesApi.getSandbox, { params: { id }, signal }) });
}
export function useInstanceFiles(id: string, path: string) {
  return useQuery({
    queryKey: [...instancesKey, id, 'files', path],
    queryFn: ({ signal }) => get(sandboxInstancesApi.listSandboxFiles, { params: { id }, query: { path }, signal }),
  });
}
/** Polled while the page is visible (react-query pauses intervals in a hidden tab). */
export function useInstanceStats(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...instancesKey, id, 'stats'],
    enabled,
    queryFn: ({ signal }) => get(sandboxInstancesApi.sandboxStats, { params: { id }, signal }),
    refetchInterval: 3000,
    refetchIntervalInBackground: false,
    retry: false,
  });
}
/** A download link (the browser saves the bytes; not a JSON read), built from the operation's contract. */
export const fileUrl = (id: string, path: string) => urlOf(sandboxInstancesApi.downloadSandboxFile.path, { id }, { path });

export function useStartSandbox() {
  const qc = useQueryClient();
  return useOperation(startSandboxAction, { input: (configId: string) => ({ body: { configId } }), onSettled: () => invalidate(qc) });
}
export function useRemoveSandbox() {
  const qc = useQueryClient();
  return useOperation(removeSandboxAction, { input: (id: string) => ({ params: { id } }), onSettled: () => invalidate(qc) });
}
export function useRecycleSandbox() {
  const qc = useQueryClient();
  return useOperation(recycleInstanceAction, { input: (id: string) => ({ params: { id } }), onSettled: () => invalidate(qc) });
}
export function useExecSandbox(id: string) {
  return useOperation(execSandboxAction, { input: (body: z.input<typeof execInput>) => ({ params: { id }, body }) });
}
