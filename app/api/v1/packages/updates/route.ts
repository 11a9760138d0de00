import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { readUpdates } from '@/lib/packages';

export const GET = handle(api.packageUpdates, async ({ services }) => readUpdates(services.database));
