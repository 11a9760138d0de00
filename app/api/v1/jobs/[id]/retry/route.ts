import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { retryJob } from '@/lib/jobs';

export const POST = handle(api.retryJob, async ({ services, actor, params }) => retryJob(services.database, actor, params.id));
