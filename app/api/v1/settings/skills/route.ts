import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { getSkillsSettings, updateSkillsSettings } from '@/lib/settings/store';

export const GET = handle(api.skillsSettings, async ({ services }) => getSkillsSettings(services.database.db));
export const PUT = handle(api.updateSkillsSettings, async ({ services, actor, body }) => {
  const out = await updateSkillsSettings(services.database.db, actor, body);
  services.skills.invalidate();
  return out;
});
