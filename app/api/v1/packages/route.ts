import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { listPackages, packageContext } from '@/lib/packages';

export const GET = handle(api.listPackages, async ({ services, query }) => listPackages(packageContext(services.config.runtimeDir), query, services.database.db));
