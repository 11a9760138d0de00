import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { readSkillFile } from '@/lib/skills/service';

export const GET = handle(api.skillFile, async ({ services, params, query }) => readSkillFile(services.skills, services.config.dataDir, params.id, query.path, query.version));
