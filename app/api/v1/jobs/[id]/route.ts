import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { getJob } from '@/lib/jobs';

export const GET = handle(api.getJob, async ({ services, params }) => getJob(services.database, params.id));
