import { api } from '@/lib/api/contracts';
import { listAudit } from '@/lib/audit';
import { handle } from '@/lib/http/handler';

export const GET = handle(api.listAudit, async ({ services, query }) => listAudit(services.database.db, query));
