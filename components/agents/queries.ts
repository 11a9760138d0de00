'use client';

import { type QueryClient, useQuery } from '@tanstack/react-query';
import { agentsApi } from '@/lib/api/contracts/agents';
import { get } from '../api';

export const agentsKey = ['agents'] as const;
export const summariesKey = ['agents', 'summaries'] as const;
export const matrixKey = ['agents', 'matrix'] as const;
export const agentKey = (id: string) => ['agents', 'one', id] as const;

/** Every agents query: a write to one agent or the defaults can change any agent's effective set. */
export const invalidateAgents = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: agentsKey });

export function useAgentSummaries() {
  return useQuery({ queryKey: summariesKey, queryFn: ({ signal }) => get(agentsApi.agentSummaries, { signal }) });
}

export function useMatrix() {
  return useQuery({ queryKey: matrixKey, queryFn: ({ signal }) => get(agentsApi.allowlistMatrix, { signal }) });
}

export function useAgent(id: string) {
  return useQuery({ queryKey: agentKey(id), queryFn: ({ signal }) => get(agentsApi.getAgent, { params: { id }, signal }), retry: false });
}

export function useAgentSkills(id: string) {
  return useQuery({ queryKey: ['agents', 'skills', id], queryFn: ({ signal }) => get(agentsApi.agentSkills, { params: { id }, signal }) });
}

export function useExplain(id: string, skill?: string) {
  return useQuery({
    queryKey: ['agents', 'explain', id, skill ?? ''],
    queryFn: ({ signal }) => get(agentsApi.explainAgent, { params: { id }, query: { skill }, signal }),
    retry: false,
  });
}

export function useBudgetPlan(id: string, tryBudget: { maxSkills?: number; maxChars?: number }) {
  // 0 (a cleared field) means "the agent's own budget", as an absent value does.
  const query = { maxSkills: tryBudget.maxSkills || undefined, maxChars: tryBudget.maxChars || undefined };
  return useQuery({
    queryKey: ['agents', 'budget', id, query],
    queryFn: ({ signal }) => get(agentsApi.agentBudget, { params: { id }, query, signal }),
    placeholderData: (prev) => prev,
    retry: false,
  });
}

export function useSkillAgents(name: string) {
  return useQuery({
    queryKey: ['agents', 'by-skill', name],
    queryFn: ({ signal }) => get(agentsApi.skillAgents, { query: { name }, signal }),
    retry: false,
  });
}
