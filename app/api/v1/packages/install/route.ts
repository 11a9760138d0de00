import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { enqueueJob } from '@/lib/jobs';

export const POST = handle(api.installPackage, async ({ services, actor, body }) => enqueueJob(services.database, actor, 'package.install', body, { trusted: true }));
