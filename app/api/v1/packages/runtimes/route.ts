import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { loadRuntimeReport } from '@/lib/packages';

export const GET = handle(api.packageRuntimes, async ({ services, query }) => loadRuntimeReport(services.database.db, services.config.runtimeDir, query.refresh === 'true'));
