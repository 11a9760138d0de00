import { api } from '@/lib/api/contracts';
import { updateUser } from '@/lib/auth';
import { handle } from '@/lib/http/handler';

export const PATCH = handle(api.updateUser, async ({ services, actor, params, body }) => updateUser(services.database.db, actor, params.id, body));
