import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { toSarif } from '@/lib/skills/scanner';
import { findSkill } from '@/lib/skills/service';

export const GET = handle(api.skillSarif, async ({ services, params }) => {
  const { skill } = await findSkill(services.skills, params.id);
  return toSarif(skill.name, skill.scan);
});
