/** Client-side shapes of the jobs API (mirrors jobOut in lib/api/schemas.ts, without importing the database schema). */

export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const FINAL_STATES: readonly JobState[] = ['succeeded', 'failed', 'canceled'];
export const isFinal = (s: string) => (FINAL_STATES as readonly string[]).includes(s);

export interface Job {
  id: string;
  kind: string;
  title: string;
  state: JobState;
  params: unknown;
  result: unknown;
  error: string | null;
  progressPercent: number;
  progressStage: string;
  attempts: number;
  maxAttempts: number;
  cancelRequested: boolean;
  parentId: string | null;
  retryOf: string | null;
  createdByLabel: string;
  logCount: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface JobPage {
  items: Job[];
  nextBefore: string | null;
}

export interface JobKindInfo {
  kind: string;
  startable: boolean;
  startPermission: string | null;
  requiredRole: string | null;
  canStart: boolean;
  concurrency: number;
  maxAttempts: number;
  resumable: boolean;
}

export interface LogLine {
  seq: number;
  at: string;
  stream: 'stdout' | 'stderr' | 'info';
  line: string;
}

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
  if (q && !(job.title.toLowerCase().includes(q) || job.kind.toLowerCase().includes(q) || job.createdByLabel.toLowerCase().includes(q) || job.id === q)) return false;
  return true;
}

export const jobHref = (id: string) => `/jobs/${id}`;
