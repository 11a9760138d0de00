import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { loadPackageContext } from '@/lib/packages/context';
import { findSkill, startSkillDepsInstall } from '@/lib/skills/service';

export const POST = handle(api.skillDepsInstall, async ({ services, actor, body }) => {
  const { copy } = await findSkill(services.skills, body.id);
  return startSkillDepsInstall(services.database, actor, await loadPackageContext(services.database.db, services.config.runtimeDir), copy);
});
