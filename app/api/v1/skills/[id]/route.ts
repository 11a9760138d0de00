import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { skillDetail } from '@/lib/skills/service';

export const GET = handle(api.getSkill, async ({ services, params }) => skillDetail(services.skills, services.database.db, services.config.dataDir, params.id));
