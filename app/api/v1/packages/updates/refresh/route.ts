import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { requestUpdateCheck } from '@/lib/packages';

export const POST = handle(api.refreshUpdates, async ({ services, actor }) => requestUpdateCheck(services.database, actor));
