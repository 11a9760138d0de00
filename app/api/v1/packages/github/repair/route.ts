import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { enqueueJob } from '@/lib/jobs';

export const POST = handle(api.githubRepair, async ({ services, actor }) => enqueueJob(services.database, actor, 'github.repair', {}, { trusted: true }));
