import { api } from '@/lib/api/contracts';
import { resetPassword } from '@/lib/auth';
import { handle } from '@/lib/http/handler';

export const POST = handle(api.resetPassword, async ({ services, actor, params, body }) => resetPassword(services.database.db, actor, params.id, body.password));
