import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';

export const POST = handle(api.refreshSkills, async ({ services }) => {
  const snap = await services.skills.refresh();
  return { version: snap.version, skills: snap.skills.length };
});
