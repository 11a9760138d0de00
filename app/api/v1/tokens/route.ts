import { api } from '@/lib/api/contracts';
import { createToken, listTokens } from '@/lib/auth';
import { handle } from '@/lib/http/handler';

export const GET = handle(api.listTokens, async ({ services, actor }) => ({ items: await listTokens(services.database.db, actor.userId!) }));
export const POST = handle(api.createToken, async ({ services, actor, body }) => createToken(services.database.db, actor, body));
