import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { startPackageJob } from '@/lib/packages';

export const POST = handle(api.installPackage, async ({ services, actor, body }) => startPackageJob(services.database, actor, 'install', body));
