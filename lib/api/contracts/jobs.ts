import { z } from 'zod';
import { defineContract } from '../../http/contract';
import { jobLogsQuery, listJobsQuery, startJobInput } from '../../jobs/schemas';
import { idParams, jobKindsOut, jobOut, logLineOut, pageOf } from '../schemas';

/** The job engine: list, start, follow, cancel and retry jobs. */
export const jobsApi = {
  listJobs: defineContract({
    method: 'GET',
    path: '/api/v1/jobs',
    tag: 'Jobs',
    summary: 'List jobs with filters',
    permission: 'jobs.read',
    query: listJobsQuery,
    response: pageOf(jobOut, z.string()),
  }),
  jobKinds: defineContract({
    method: 'GET',
    path: '/api/v1/jobs/kinds',
    tag: 'Jobs',
    summary: 'Job kinds and who may start them',
    permission: 'jobs.read',
    response: jobKindsOut,
  }),
  startJob: defineContract({
    method: 'POST',
    path: '/api/v1/jobs',
    tag: 'Jobs',
    summary: 'Start a job of a startable kind',
    permission: 'jobs.run',
    body: startJobInput,
    response: jobOut,
    status: 202,
  }),
  getJob: defineContract({
    method: 'GET',
    path: '/api/v1/jobs/{id}',
    tag: 'Jobs',
    summary: 'One job',
    permission: 'jobs.read',
    params: idParams,
    response: jobOut,
  }),
  cancelJob: defineContract({
    method: 'POST',
    path: '/api/v1/jobs/{id}/cancel',
    tag: 'Jobs',
    summary: 'Cancel a queued or running job',
    permission: 'jobs.cancel',
    params: idParams,
    response: jobOut,
    status: 202,
  }),
  retryJob: defineContract({
    method: 'POST',
    path: '/api/v1/jobs/{id}/retry',
    tag: 'Jobs',
    summary: 'Run a failed or canceled job again as a new job',
    permission: 'jobs.run',
    params: idParams,
    response: jobOut,
    status: 202,
  }),
  jobLogs: defineContract({
    method: 'GET',
    path: '/api/v1/jobs/{id}/logs',
    tag: 'Jobs',
    summary: 'Log lines after a sequence number (JSON), or the whole log as text with ?format=text',
    permission: 'jobs.read',
    params: idParams,
    query: jobLogsQuery.extend({ format: z.enum(['json', 'text']).default('json') }),
    response: z.object({ items: z.array(logLineOut) }),
  }),
  jobEvents: defineContract({
    method: 'GET',
    path: '/api/v1/jobs/{id}/events',
    tag: 'Jobs',
    summary: 'Server-sent events: state, progress and log lines, resumable with Last-Event-ID',
    permission: 'jobs.read',
    params: idParams,
    produces: 'text/event-stream',
  }),
} as const;
