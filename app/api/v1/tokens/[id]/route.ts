import { api } from '@/lib/api/contracts';
import { revokeToken } from '@/lib/auth';
import { handle } from '@/lib/http/handler';

export const DELETE = handle(api.revokeToken, async ({ services, actor, params }) => revokeToken(services.database.db, actor, params.id));
