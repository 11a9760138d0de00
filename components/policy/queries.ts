'use client';

import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  approveExecAction,
  createProfileAction,
  deleteProfileAction,
  evaluateCommandAction,
  rejectExecAction,
  replayCommandsAction,
  updateProfileAction,
} from '@/app/(console)/policy/actions';
import type { agentListOut } from '@/lib/api/agent-schemas';
import { agentsApi } from '@/lib/api/contracts/agents';
import { policyApi } from '@/lib/api/contracts/policy';
import type {
  APPROVAL_STATES,
  approvalListOut,
  CreateProfileInput,
  denyGroupListOut,
  EvaluateInput,
  evaluationOut,
  execLogListOut,
  PatchProfileInput,
  profileListOut,
  profileOut,
  replayInput,
  replayOut,
} from '@/lib/api/policy-schemas';
import { get } from '../api';
import { callAction, useOperation } from '../use-operation';

export type ProfileView = z.infer<typeof profileOut>;
export type ProfileList = z.infer<typeof profileListOut>;
export type DenyGroupView = z.infer<typeof denyGroupListOut>['items'][number];
export type EvaluationView = z.infer<typeof evaluationOut>;
export type ReplayView = z.infer<typeof replayOut>;
export type ApprovalView = z.infer<typeof approvalListOut>['items'][number];
export type ApprovalState = (typeof APPROVAL_STATES)[number];
export type ExecLogRow = z.infer<typeof execLogListOut>['items'][number];
export type AgentView = z.infer<typeof agentListOut>['items'][number];

const profilesKey = ['exec-policy', 'profiles'] as const;
const approvalsKey = ['exec-policy', 'approvals'] as const;
const invalidateProfiles = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: profilesKey });

export function useProfiles() {
  return useQuery({ queryKey: profilesKey, queryFn: ({ signal }) => get(policyApi.listProfiles, { signal }) });
}

export function useProfile(name: string | null) {
  return useQuery({
    queryKey: [...profilesKey, name],
    enabled: !!name,
    queryFn: ({ signal }) => get(policyApi.getProfile, { params: { name: name ?? '' }, signal }),
  });
}

export function useDenyGroups() {
  return useQuery({
    queryKey: ['exec-policy', 'deny-groups'],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }) => get(policyApi.listDenyGroups, { signal }),
  });
}

export function useAgents(enabled = true) {
  return useQuery({ queryKey: ['agents'], enabled, queryFn: ({ signal }) => get(agentsApi.listAgents, { signal }) });
}

/** Approval requests; pending ones are refetched often so new requests and expiries show up. */
export function useApprovals(state?: ApprovalState) {
  return useQuery({
    queryKey: [...approvalsKey, state ?? 'all'],
    refetchInterval: 5000,
    queryFn: ({ signal }) => get(policyApi.listApprovals, { query: { limit: 200, state }, signal }),
  });
}

/** One agent's exec log, or every agent's when `agentId` is null. */
export function useExecLog(agentId: string | null, limit = 500) {
  return useQuery({
    queryKey: ['exec-policy', 'exec-log', agentId ?? '*', limit],
    refetchInterval: 15_000,
    queryFn: ({ signal }) => get(policyApi.execLog, { query: { limit, agentId }, signal }),
  });
}

/** One evaluation through the server action (it never runs anything). */
export function evaluate(input: EvaluateInput): Promise<EvaluationView> {
  return callAction(evaluateCommandAction, { body: input });
}

export function useReplay() {
  return useOperation(replayCommandsAction, { input: (v: z.input<typeof replayInput>) => ({ body: v }) });
}

export function useCreateProfile() {
  const qc = useQueryClient();
  return useOperation(createProfileAction, { input: (v: CreateProfileInput) => ({ body: v }), onSettled: () => invalidateProfiles(qc) });
}
export function useUpdateProfile() {
  const qc = useQueryClient();
  return useOperation(updateProfileAction, {
    input: (v: { name: string; patch: PatchProfileInput }) => ({ params: { name: v.name }, body: v.patch }),
    onSettled: () => invalidateProfiles(qc),
  });
}
export function useDeleteProfile() {
  const qc = useQueryClient();
  return useOperation(deleteProfileAction, { input: (name: string) => ({ params: { name } }), onSettled: () => invalidateProfiles(qc) });
}

export function useDecideApproval() {
  const qc = useQueryClient();
  const onSettled = () => void qc.invalidateQueries({ queryKey: approvalsKey });
  const approve = useOperation(approveExecAction, { input: (id: string) => ({ params: { id }, body: {} }), onSettled });
  const reject = useOperation(rejectExecAction, { input: (id: string) => ({ params: { id }, body: {} }), onSettled });
  return { approve, reject };
}
