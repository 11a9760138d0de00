'use client';

import { keepPreviousData, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  acknowledgeSkillAction,
  importSkillAction,
  refreshSkillsAction,
  rollbackSkillAction,
  skillDepsInstallAction,
  uninstallSkillAction,
  updateSkillEntryAction,
} from '@/app/(console)/skills/actions';
import { skillsApi } from '@/lib/api/contracts/skills';
import type { ImportInput, SkillEntryInput } from '@/lib/skills/service/schemas';
import { get } from '../api';
import { jobKey } from '../jobs/queries';
import type { Job } from '../jobs/view';
import { useOperation } from '../use-operation';

/** The list is polled this often while the page is visible, so the watcher's changes show up. */
export const LIST_POLL_MS = 5000;

export const skillsKey = ['skills'] as const;
export const skillListKey = (filters: { status: string; q: string; source: string }) => ['skills', 'list', filters] as const;
export const skillKey = (id: string) => ['skills', 'detail', id] as const;
export const skillFileKey = (id: string, path: string) => ['skills', 'file', id, path] as const;
export const skillDepsKey = (id: string) => ['skills', 'deps', id] as const;
export const skillsSettingsKey = ['settings', 'skills'] as const;
export const skillDiffKey = (slug: string, a: string, b: string) => ['skills', 'diff', slug, a, b] as const;

/** Every skills query: after a write or a job's end, the catalog may have changed. */
export const invalidateSkills = (qc: QueryClient) => void qc.invalidateQueries({ queryKey: skillsKey });

/** The catalog under the list's filters ('all' statuses is no status filter). */
export const listSkills = (f: { status: string; q: string; source: string }, signal?: AbortSignal) =>
  get(skillsApi.listSkills, { query: { status: f.status === 'all' ? undefined : f.status, q: f.q.trim(), source: f.source }, signal });

export function useSkillList(filters: { status: string; q: string; source: string }) {
  return useQuery({
    queryKey: skillListKey(filters),
    queryFn: ({ signal }) => listSkills(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: LIST_POLL_MS,
  });
}

export function useSkill(id: string) {
  return useQuery({
    queryKey: skillKey(id),
    queryFn: ({ signal }) => get(skillsApi.getSkill, { params: { id }, signal }),
    refetchInterval: 15_000,
  });
}

export function useSkillFile(id: string, path: string | null) {
  return useQuery({
    queryKey: skillFileKey(id, path ?? ''),
    queryFn: ({ signal }) => get(skillsApi.skillFile, { params: { id }, query: { path: path! }, signal }),
    enabled: !!path,
    staleTime: 30_000,
  });
}

export function useSkillDeps(id: string, enabled: boolean) {
  return useQuery({
    queryKey: skillDepsKey(id),
    queryFn: ({ signal }) => get(skillsApi.skillDeps, { params: { id }, signal }),
    enabled,
    staleTime: 30_000,
  });
}

export function useSkillDiff(slug: string, a: string, b: string) {
  return useQuery({
    queryKey: skillDiffKey(slug, a, b),
    queryFn: ({ signal }) => get(skillsApi.diffSkill, { query: { slug, a, b }, signal }),
    enabled: !!a && !!b && a !== b,
    staleTime: 60_000,
  });
}

/** Saves the skill's entry. The list and the detail are refetched: gating depends on the entry. */
export function useUpdateEntry() {
  const qc = useQueryClient();
  return useOperation(updateSkillEntryAction, { input: (v: SkillEntryInput) => ({ body: v }), onSettled: () => invalidateSkills(qc) });
}

export function useAcknowledge() {
  const qc = useQueryClient();
  return useOperation(acknowledgeSkillAction, { input: (v: { id: string; reason: string }) => ({ body: v }), onSuccess: () => invalidateSkills(qc) });
}
export function useRollback() {
  const qc = useQueryClient();
  return useOperation(rollbackSkillAction, { input: (v: { slug: string; version: string }) => ({ body: v }), onSuccess: () => invalidateSkills(qc) });
}
export function useUninstall() {
  const qc = useQueryClient();
  return useOperation(uninstallSkillAction, { input: (v: { slug: string }) => ({ body: v }), onSuccess: () => invalidateSkills(qc) });
}
export function useRefreshSkills() {
  const qc = useQueryClient();
  return useOperation(refreshSkillsAction, { input: () => ({}), onSuccess: () => invalidateSkills(qc) });
}

const seedJob = (qc: QueryClient, job: Job) => {
  qc.setQueryData(jobKey(job.id), job);
  void qc.invalidateQueries({ queryKey: ['jobs'] });
};

/** Imports a skill: the queued job. */
export function useImportSkill() {
  const qc = useQueryClient();
  return useOperation(importSkillAction, { input: (v: ImportInput) => ({ body: v }), onSuccess: (job) => seedJob(qc, job) });
}

/** Installs a skill's missing dependencies: one parent job, one install per package. */
export function useInstallSkillDeps() {
  const qc = useQueryClient();
  return useOperation(skillDepsInstallAction, {
    input: (id: string) => ({ body: { id } }),
    onSuccess: (r) => {
      for (const c of r.children ?? []) qc.setQueryData(jobKey(c.id), c);
      seedJob(qc, r.job);
    },
  });
}

/** ClawHub search: the hits, best first. */
export function useClawhubSearch(q: string) {
  return useQuery({
    queryKey: ['clawhub-search', q] as const,
    queryFn: ({ signal }) => get(skillsApi.clawhubSearch, { query: { q }, signal }),
    enabled: q.trim().length >= 2,
    staleTime: 60_000,
    retry: false,
  });
}
