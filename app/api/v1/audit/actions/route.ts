import { api } from '@/lib/api/contracts';
import { distinctAuditActions } from '@/lib/audit';
import { handle } from '@/lib/http/handler';

export const GET = handle(api.auditActions, async ({ services }) => ({ items: await distinctAuditActions(services.database.db) }));
