import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { diffSkillVersions } from '@/lib/skills/service';

export const GET = handle(api.diffSkill, async ({ services, query }) => diffSkillVersions(services.config.dataDir, query));
