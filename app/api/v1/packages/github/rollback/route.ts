import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { enqueueJob } from '@/lib/jobs';

export const POST = handle(api.githubRollback, async ({ services, actor, body }) => enqueueJob(services.database, actor, 'github.rollback', body, { trusted: true }));
