import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { updateEntry } from '@/lib/skills/service';

export const PUT = handle(api.updateSkillEntry, async ({ services, actor, body }) => {
  const out = await updateEntry(services.database.db, services.secrets, actor, body);
  services.skills.invalidate();
  return out;
});
