import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { checkSkillDeps, loadPackageContext } from '@/lib/packages';

export const POST = handle(api.checkDeps, async ({ services, body }) => checkSkillDeps(await loadPackageContext(services.database.db, services.config.runtimeDir), body));
