import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { uninstallSkill } from '@/lib/skills/service';

export const POST = handle(api.uninstallSkill, async ({ services, actor, body }) => uninstallSkill(services.skills, services.database.db, services.config.dataDir, actor, body));
