import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { loadPackageContext } from '@/lib/packages/context';
import { findSkill, skillDeps } from '@/lib/skills/service';

export const GET = handle(api.skillDeps, async ({ services, params }) => {
  const { copy } = await findSkill(services.skills, params.id);
  return skillDeps(await loadPackageContext(services.database.db, services.config.runtimeDir), copy);
});
