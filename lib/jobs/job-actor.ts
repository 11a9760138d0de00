import { type Actor, systemActor } from '../auth/actor';
import type { JobRow } from './types';

/** The user who queued the job, for the audit rows the job writes (the permission was checked when it was queued). */
export const jobActor = (job: JobRow): Actor => ({
  ...systemActor,
  kind: 'user',
  userId: job.createdBy ?? null,
  email: job.createdByLabel,
  label: job.createdByLabel,
});
