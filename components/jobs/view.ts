/** The jobs API's shapes, taken from the contracts' schemas (type-only), and the jobs pages' view helpers. */
import type { z } from 'zod';
import { FINAL_STATES, isFinalState, JOB_STATES, type JobState } from '@/db/schema/job-states';
import type { jobKindOut, jobOut, logLineOut } from '@/lib/api/schemas';

export { FINAL_STATES, JOB_STATES, type JobState };
export const isFinal = isFinalState;

export type Job = z.output<typeof jobOut>;
export interface JobPage {
  items: Job[];
  nextBefore: string | null;
}
export type JobKindInfo = z.output<typeof jobKindOut>;
export type LogLine = z.output<typeof logLineOut>;

export const SORTS = ['created_desc', 'created_asc'] as const;
export type JobSort = (typeof SORTS)[number];

/** The list filters, as kept in the URL. Empty strings mean "any". */
export interface JobFilters {
  state: JobState | '';
  kind: string;
  q: string;
  sort: JobSort;
}

/** Whether a job belongs in a list with these filters (the same rules as listJobs on the server). */
export function jobMatches(f: JobFilters, job: Job): boolean {
  if (f.state && job.state !== f.state) return false;
  if (f.kind && job.kind !== f.kind) return false;
  const q = f.q.trim().toLowerCase();
  if (q && !(job.title.toLowerCase().includes(q) || job.kind.toLowerCase().includes(q) || job.createdByLabel.toLowerCase().includes(q) || job.id === q))
    return false;
  return true;
}

export const jobHref = (id: string) => `/jobs/${id}`;
