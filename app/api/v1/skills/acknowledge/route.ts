import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { acknowledgeSkill } from '@/lib/skills/service';

export const POST = handle(api.acknowledgeSkill, async ({ services, actor, body }) => acknowledgeSkill(services.skills, services.database.db, actor, body));
