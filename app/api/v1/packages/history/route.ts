import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { packageHistory } from '@/lib/packages';

export const GET = handle(api.packageHistory, async ({ services, query }) => packageHistory(services.database.db, query.limit));
