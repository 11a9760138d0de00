import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { enqueueJob } from '@/lib/jobs';

export const POST = handle(api.uninstallPackage, async ({ services, actor, body }) => enqueueJob(services.database, actor, 'package.uninstall', body, { trusted: true }));
