import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { listSkills } from '@/lib/skills/service';

export const GET = handle(api.listSkills, async ({ services, query }) => listSkills(services.skills, query));
