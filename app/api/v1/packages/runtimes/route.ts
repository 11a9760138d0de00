import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { runtimeReport } from '@/lib/packages';

export const GET = handle(api.packageRuntimes, async ({ services, query }) => runtimeReport(services.config.runtimeDir, query.refresh === 'true'));
