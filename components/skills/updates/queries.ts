'use client';

import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { applySkillUpdatesAction, checkSkillUpdatesAction, setSkillUpdatePolicyAction } from '@/app/(console)/skills/actions';
import { get } from '@/components/api';
import type { skillUpdateDetailOut, skillUpdatesOut } from '@/lib/api/contracts/skill-updates';
import { skillUpdatesApi } from '@/lib/api/contracts/skill-updates';
import type { updatePolicyInput } from '@/lib/skills/updates/schemas';
import { jobKey } from '../../jobs/queries';
import type { Job } from '../../jobs/view';
import { useOperation } from '../../use-operation';

export type SkillUpdates = z.output<typeof skillUpdatesOut>;
export type SkillUpdate = SkillUpdates['items'][number];
export type SkillUpdateDetail = z.output<typeof skillUpdateDetailOut>;

export const updatesKey = ['skills', 'updates'] as const;
export const updateDiffKey = (slug: string) => ['skills', 'updates', 'diff', slug] as const;

export function useSkillUpdates() {
  return useQuery({
    queryKey: updatesKey,
    queryFn: ({ signal }) => get(skillUpdatesApi.listSkillUpdates, { signal }),
    refetchInterval: 15_000,
  });
}

export function useSkillUpdateDiff(slug: string | null) {
  return useQuery({
    queryKey: updateDiffKey(slug ?? ''),
    queryFn: ({ signal }) => get(skillUpdatesApi.skillUpdateDiff, { query: { slug: slug! }, signal }),
    enabled: !!slug,
  });
}

const seedJob = (qc: QueryClient, job: Job) => {
  qc.setQueryData(jobKey(job.id), job);
  void qc.invalidateQueries({ queryKey: ['jobs'] });
};

/** Checks sources for newer versions (all, or the skills named): the queued job. */
export function useCheckUpdates() {
  const qc = useQueryClient();
  return useOperation(checkSkillUpdatesAction, { input: (slugs?: string[]) => ({ body: slugs ? { slugs } : {} }), onSuccess: (job) => seedJob(qc, job) });
}

/** Updates the skills named (or every one with an update waiting) in one job. */
export function useApplyUpdates() {
  const qc = useQueryClient();
  return useOperation(applySkillUpdatesAction, { input: (slugs?: string[]) => ({ body: slugs ? { slugs } : {} }), onSuccess: (job) => seedJob(qc, job) });
}

export function useSetUpdatePolicy() {
  const qc = useQueryClient();
  return useOperation(setSkillUpdatePolicyAction, {
    input: (v: z.input<typeof updatePolicyInput>) => ({ body: v }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: updatesKey }),
  });
}
