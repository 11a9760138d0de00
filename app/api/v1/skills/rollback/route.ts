import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { rollbackSkill } from '@/lib/skills/service';

export const POST = handle(api.rollbackSkill, async ({ services, actor, body }) => rollbackSkill(services.skills, services.database.db, services.config.dataDir, actor, body));
