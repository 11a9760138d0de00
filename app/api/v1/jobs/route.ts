import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { enqueueJob, listJobs } from '@/lib/jobs';

export const GET = handle(api.listJobs, async ({ services, query }) => listJobs(services.database, query));
export const POST = handle(api.startJob, async ({ services, actor, body }) => enqueueJob(services.database, actor, body.kind, body.params));
