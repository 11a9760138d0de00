import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { cancelJob } from '@/lib/jobs';

export const POST = handle(api.cancelJob, async ({ services, actor, params }) => cancelJob(services.database, actor, params.id));
