import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { loadPackageContext, startDepsInstall } from '@/lib/packages';

export const POST = handle(api.installDeps, async ({ services, actor, body }) =>
  startDepsInstall(services.database, actor, await loadPackageContext(services.database.db, services.config.runtimeDir), body),
);
