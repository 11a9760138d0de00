import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { enqueueJob } from '@/lib/jobs';

export const POST = handle(api.importSkill, async ({ services, actor, body }) => enqueueJob(services.database, actor, 'skill.import', body, { trusted: true }));
