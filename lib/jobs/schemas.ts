// The job API's inputs: schema-only (zod and the job-state list), so the browser and the contracts
// can import them without the queue behind them.
import { z } from 'zod';
import { JOB_STATES } from '@/db/schema/job-states';
import { JOB_KIND_NAME } from './kind';

export const startJobInput = z.strictObject({
  kind: z.string().regex(JOB_KIND_NAME, 'A job kind is lowercase letters, digits, dots and dashes'),
  params: z.record(z.string(), z.unknown()).default({}),
});

export const listJobsQuery = z.strictObject({
  state: z.enum(JOB_STATES).optional(),
  kind: z.string().max(64).optional(),
  q: z.string().trim().max(200).optional(),
  parentId: z.string().max(64).optional(),
  /** Keyset cursor: the nextBefore of the previous page. */
  before: z
    .string()
    .regex(/^\d{4}-\d\d-\d\dT[\d:.]+Z~[0-9a-f-]{36}$/, 'Not a cursor from a previous page')
    .optional(),
  sort: z.enum(['created_desc', 'created_asc']).default('created_desc'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const jobLogsQuery = z.strictObject({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(10_000).default(5000),
});
