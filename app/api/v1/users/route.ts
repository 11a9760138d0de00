import { api } from '@/lib/api/contracts';
import { createUser, listUsers } from '@/lib/auth';
import { handle } from '@/lib/http/handler';

export const GET = handle(api.listUsers, async ({ services }) => ({ items: await listUsers(services.database.db) }));
export const POST = handle(api.createUser, async ({ services, actor, body }) => createUser(services.database.db, actor, body));
