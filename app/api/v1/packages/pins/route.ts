import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { pinPackage } from '@/lib/packages';

export const POST = handle(api.pinPackage, async ({ services, actor, body }) => pinPackage(services.database.db, actor, body));
